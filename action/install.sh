#!/usr/bin/env bash
# Installs planpr for the composite action (action.yml), on Linux, macOS and
# Windows runners (Git Bash there):
#
#   install.sh resolve   which planpr the action's ref means, and where it goes
#   install.sh install   download that release for this runner (or find its
#                        archive in the tool cache), check it against the
#                        release's SHA256SUMS and its provenance (gh
#                        attestation verify) at every run, unpack it
#   install.sh build     build planpr from the action's own checkout (a ref
#                        that is a branch or a commit, not a release)
#
# It reads the runner's variables (RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP,
# GITHUB_SERVER_URL, GITHUB_API_URL, GITHUB_OUTPUT, GITHUB_PATH,
# GITHUB_ACTION_PATH) and the action's: PLANPR_REF (github.action_ref),
# PLANPR_REPOSITORY (github.action_repository), PLANPR_VERSION (the
# `version` input, which overrides the ref) and PLANPR_TOKEN (for the
# releases API, which resolves v1 or v1.2 to the newest matching release,
# and for gh's attestation lookup) and PLANPR_PROVENANCE (the provenance
# input: false skips the attestation check).
# Every failure says what went wrong and exits 1 with nothing installed.
set -euo pipefail

server=${GITHUB_SERVER_URL:-https://github.com}
api=${GITHUB_API_URL:-https://api.github.com}
action_path=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}
repo=${PLANPR_REPOSITORY:-}
ref=${PLANPR_REF:-}
# Composite actions may see an empty github.action_ref; the runner checks
# the action out at .../_actions/OWNER/NAME/REF, which names both.
if [ -z "$ref" ]; then ref=$(basename "$action_path"); fi
if [ -z "$repo" ]; then
  repo=$(basename "$(dirname "$(dirname "$action_path")")")/$(basename "$(dirname "$action_path")")
fi

fail() { echo "::error title=planpr install::$*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
output() { if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1=$2" >> "$GITHUB_OUTPUT"; fi; echo "$1=$2"; }

platform() {
  case "${RUNNER_OS:-$(uname -s)}" in
    Linux) os=linux ;;
    macOS | Darwin) os=darwin ;;
    Windows | MINGW* | MSYS*) os=windows ;;
    *) fail "unknown platform: RUNNER_OS=${RUNNER_OS:-?}: planpr releases are built for Linux, macOS and Windows; use a ref that is a branch to build it from source" ;;
  esac
  case "${RUNNER_ARCH:-$(uname -m)}" in
    X64 | x86_64 | amd64) arch=amd64 ;;
    ARM64 | arm64 | aarch64) arch=arm64 ;;
    *) fail "unknown platform: RUNNER_ARCH=${RUNNER_ARCH:-?}: planpr releases are built for X64 and ARM64; use a ref that is a branch to build it from source" ;;
  esac
  exe=""
  if [ "$os" = windows ]; then exe=.exe; fi
}

# installDir is where a version goes: the tool cache, kept by actions/cache.
installDir() {
  local root=${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-/tmp}}
  echo "$root/planpr/$1/${os}_$arch"
}

sha256() {
  if command -v sha256sum > /dev/null; then sha256sum "$1" | cut -d' ' -f1
  else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

# get URL FILE [AUTH]: fails quietly; the caller names the problem.
get() {
  local args=(--fail --silent --show-error --location --retry 3 --retry-connrefused --output "$2")
  if [ -n "${3:-}" ]; then args+=(--header "Authorization: Bearer $3"); fi
  curl "${args[@]}" "$1"
}

# newestRelease PREFIX: the newest release tag vPREFIX.* that is neither a
# draft nor a pre-release, from the releases API. Each release lists its
# tag_name before its draft and prerelease flags; nested objects (author,
# assets) have none of the three.
newestRelease() {
  local list=$work/releases.json
  if ! get "$api/repos/$repo/releases?per_page=100" "$list" "${PLANPR_TOKEN:-}" 2> "$work/err"; then
    fail "cannot list the releases of $repo at $api ($(tail -1 "$work/err")): set the version input, or use a full version as the ref (@v1.2.3)"
  fi
  grep -oE '"(tag_name|draft|prerelease)"[[:space:]]*:[[:space:]]*("[^"]*"|true|false)' "$list" |
    sed -E 's/^"([a-z_]+)"[[:space:]]*:[[:space:]]*"?([^"]*)"?$/\1 \2/' |
    awk -v prefix="$1." '
      $1 == "tag_name" { tag = $2; draft = ""; pre = "" }
      $1 == "draft" { draft = $2 }
      $1 == "prerelease" { pre = $2 }
      tag != "" && draft != "" && pre != "" {
        if (draft == "false" && pre == "false" && index(tag, prefix) == 1 && tag ~ /^v[0-9]+\.[0-9]+\.[0-9]+$/) print substr(tag, 2)
        tag = ""
      }' |
    sort -t. -k1,1n -k2,2n -k3,3n | tail -1
}

# tagAt SHA: the release version (1.2.3) whose tag vX.Y.Z points at the
# commit SHA, from the tags API; nothing when no release tag does. An
# action pinned by commit (@3f2a… # v1.2.3) installs that release.
tagAt() {
  local list=$work/tags.json
  get "$api/repos/$repo/tags?per_page=100" "$list" "${PLANPR_TOKEN:-}" 2> /dev/null || return 0
  # Each tag lists its name before its commit's sha.
  grep -oE '"(name|sha)"[[:space:]]*:[[:space:]]*"[^"]*"' "$list" |
    sed -E 's/^"([a-z]+)"[[:space:]]*:[[:space:]]*"([^"]*)"$/\1 \2/' |
    awk -v want="$1" '
      $1 == "name" { name = $2 }
      $1 == "sha" && name != "" { if ($2 == want && name ~ /^v[0-9]+\.[0-9]+\.[0-9]+$/) print substr(name, 2); name = "" }' |
    sort -t. -k1,1n -k2,2n -k3,3n | tail -1
}

resolve() {
  platform
  local version=${PLANPR_VERSION#v}
  if [ -z "$version" ] && [[ "$ref" =~ ^[0-9a-f]{40}$ ]]; then
    version=$(tagAt "$ref")
  fi
  if [ -z "$version" ]; then
    if [[ "$ref" =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
      version=${ref#v}
    elif [[ "$ref" =~ ^v[0-9]+(\.[0-9]+)?$ ]]; then
      version=$(newestRelease "$ref")
      [ -n "$version" ] || fail "no release of $repo matches $ref yet: use a full version (@v1.2.3) or a branch"
    fi
  fi
  if [ -z "$version" ]; then
    output source true
    output version ""
    output dir "$(installDir "source-$(echo "$ref" | tr -c 'A-Za-z0-9._-' '_')")"
    return
  fi
  output source false
  output version "$version"
  output dir "$(installDir "$version")"
}

addPath() {
  local dir=$1
  if [ "$os" = windows ] && command -v cygpath > /dev/null; then dir=$(cygpath -w "$dir"); fi
  if [ -n "${GITHUB_PATH:-}" ]; then echo "$dir" >> "$GITHUB_PATH"; fi
  output bin "$1/planpr$exe"
}

# provenance FILE NAME VERSION: the release archive was built by this repository's
# release workflow, as its GitHub artifact attestation (Sigstore-signed,
# made by actions/attest-build-provenance) says; gh checks it. Skipped
# only when the provenance input is false (GitHub Enterprise Server
# without attestations, runners without gh), with a warning.
provenance() {
  if [ "${PLANPR_PROVENANCE:-true}" = false ]; then
    echo "::warning title=planpr install::provenance is off: $2 is checked against its release's SHA256SUMS only, not proven to come from $repo's release workflow"
    return
  fi
  command -v gh > /dev/null ||
    fail "cannot prove $2 comes from $repo's release workflow: the gh CLI is not on this runner (GitHub's runners have it; install it, or set the provenance input to false)"
  # The release workflow runs on its tag: the attestation names the tag
  # and the commit it was built from. Pinned by a commit (@3f2a…), that
  # very commit must be the one built, not only some release's.
  local source=(--source-ref "refs/tags/v$3")
  if [[ "$ref" =~ ^[0-9a-f]{40}$ ]]; then source+=(--source-digest "$ref"); fi
  if ! GH_TOKEN=${GH_TOKEN:-${PLANPR_TOKEN:-}} gh attestation verify "$1" --repo "$repo" \
      --signer-workflow "$repo/.github/workflows/release.yml" "${source[@]}" > "$work/attest" 2>&1; then
    fail "$2 is not proven to come from $repo's release workflow at ${source[*]:1} ($(tail -1 "$work/attest")); nothing was installed"
  fi
}

# install VERSION DIR: DIR (the tool cache, kept by actions/cache) keeps
# the release archive, never a binary to run. At every run the archive is
# checked against the release's SHA256SUMS, fetched anew, and its
# provenance proven; the binary is then unpacked from it into a directory
# of this run's own, so nothing written to the cache is ever run unchecked.
install() {
  platform
  local version=${1:?install needs the version} dir=${2:?install needs the directory}
  local ext=tar.gz
  if [ "$os" = windows ]; then ext=zip; fi
  local archive="planpr_${version}_${os}_$arch.$ext"
  local base="$server/$repo/releases/download/v$version"

  if ! get "$base/SHA256SUMS" "$work/SHA256SUMS" 2> "$work/err"; then
    fail "no release v$version of $repo: $base/SHA256SUMS could not be fetched ($(tail -1 "$work/err")); check the version, or use a branch to build from source"
  fi
  local want
  want=$(awk -v f="$archive" '$2 == f || $2 == "*"f {print $1}' "$work/SHA256SUMS")
  [ -n "$want" ] || fail "the release v$version has no $archive in its SHA256SUMS: no planpr for $os/$arch in that release"

  local how=installed
  mkdir -p "$dir"
  if [ -f "$dir/$archive" ] && [ "$(sha256 "$dir/$archive")" = "$want" ]; then
    how=cached
  else
    if ! get "$base/$archive" "$work/$archive" 2> "$work/err"; then
      fail "cannot download $base/$archive ($(tail -1 "$work/err"))"
    fi
    local got
    got=$(sha256 "$work/$archive")
    if [ "$got" != "$want" ]; then
      fail "checksum mismatch for $archive: SHA256SUMS of v$version says $want, the download is $got; nothing was installed"
    fi
    mv "$work/$archive" "$dir/$archive"
  fi
  provenance "$dir/$archive" "$archive" "$version"

  local bin
  bin=$(mktemp -d "${RUNNER_TEMP:-$work}/planpr-$version-XXXXXX")
  mkdir -p "$work/unpacked"
  if [ "$ext" = zip ]; then
    if command -v unzip > /dev/null; then unzip -q "$dir/$archive" -d "$work/unpacked"
    else powershell -NoProfile -Command "Expand-Archive -LiteralPath '$(cygpath -w "$dir/$archive")' -DestinationPath '$(cygpath -w "$work/unpacked")'"; fi
  else
    tar -xzf "$dir/$archive" -C "$work/unpacked"
  fi
  [ -f "$work/unpacked/planpr$exe" ] || fail "$archive holds no planpr$exe"
  cp "$work/unpacked/planpr$exe" "$bin/planpr$exe"
  chmod +x "$bin/planpr$exe"
  echo "planpr $version: $how in $dir (archive sha256 $want, checked; provenance ${PLANPR_PROVENANCE:-true}); running from $bin"
  addPath "$bin"
}

build() {
  platform
  local dir=${1:?build needs the directory}
  command -v go > /dev/null || fail "building planpr from source ($ref) needs Go: the action sets it up with actions/setup-go"
  mkdir -p "$dir"
  (cd "$action_path" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.Version=$ref-source" -o "$dir/planpr$exe" ./cmd/planpr) ||
    fail "building planpr from $action_path failed"
  echo "planpr: built from source at $ref into $dir"
  addPath "$dir"
}

case "${1:-}" in
  resolve) resolve ;;
  install) install "${2:-}" "${3:-}" ;;
  build) build "${2:-}" ;;
  *) echo "usage: install.sh resolve | install VERSION DIR | build DIR" >&2; exit 2 ;;
esac
