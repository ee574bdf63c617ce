package webhook

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"
	_ "modernc.org/sqlite" // the pure-Go SQLite behind database/sql's "sqlite"
)

// StoreConfig says where the queue lives: PostgreSQL when DatabaseURL is
// set (any number of replicas share it), else a SQLite file in DataDir
// (one replica; it survives restarts and crashes).
type StoreConfig struct {
	DataDir     string // default ./planpr-data
	DatabaseURL string // postgres://…
	Logger      *slog.Logger
}

// store is the queue's database: River's tables, and planpr's few
// queries of its own, in the dialect at hand.
type store struct {
	kind    string // "sqlite" or "postgres"
	where   string // for messages: the file, or the database's host
	db      *sql.DB
	pool    *pgxpool.Pool
	unlock  func() // the SQLite file's lock: one process at a time
	newRun  func(cfg *river.Config) (riverClient, error)
	migrate func(ctx context.Context) (*rivermigrate.MigrateResult, error)
}

// riverClient is what planpr uses of a River client, whichever driver.
type riverClient interface {
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
	InsertMany(ctx context.Context, params []river.InsertManyParams) ([]*rivertype.JobInsertResult, error)
	JobList(ctx context.Context, params *river.JobListParams) (*river.JobListResult, error)
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
	StopAndCancel(ctx context.Context) error
	Subscribe(kinds ...river.EventKind) (<-chan *river.Event, func())
}

// openStore opens (creating it if need be) the queue's database. It does
// not migrate it (see Migrate).
func openStore(ctx context.Context, cfg StoreConfig) (*store, error) {
	if url := cfg.DatabaseURL; url != "" {
		if !strings.HasPrefix(url, "postgres://") && !strings.HasPrefix(url, "postgresql://") {
			return nil, errors.New("PLANPR_DATABASE_URL: want a postgres:// URL — postgres://USER@HOST:5432/DB, the password after USER: or in PGPASSWORD (only PostgreSQL is supported)")
		}
		pool, err := pgxpool.New(ctx, url)
		if err != nil {
			return nil, fmt.Errorf("PLANPR_DATABASE_URL: %v", redactURL(err.Error(), url))
		}
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := pool.Ping(pctx); err != nil {
			pool.Close()
			return nil, fmt.Errorf("cannot reach the PostgreSQL of PLANPR_DATABASE_URL: %v", redactURL(err.Error(), url))
		}
		s := &store{kind: "postgres", where: pool.Config().ConnConfig.Host, pool: pool}
		driver := riverpgxv5.New(pool)
		migrate := migratorFor(driver, cfg.Logger)
		s.newRun = clientFor(driver)
		s.migrate = func(ctx context.Context) (res *rivermigrate.MigrateResult, err error) {
			err = s.serialized(ctx, func() error { res, err = migrate(ctx); return err })
			return res, err
		}
		return s, s.serialized(ctx, func() error { return s.prepare(ctx) })
	}
	dir := cfg.DataDir
	if dir == "" {
		dir = "planpr-data"
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("PLANPR_DATA_DIR: %w", err)
	}
	path := filepath.Join(dir, "queue.db")
	if err := privateQueueFiles(dir, path, cfg.Logger); err != nil {
		return nil, fmt.Errorf("PLANPR_DATA_DIR: %w", err)
	}
	unlock, err := lockFile(path + ".lock")
	if err != nil {
		return nil, fmt.Errorf("%s is in use by another planpr serve: one process per SQLite queue (several replicas need PLANPR_DATABASE_URL): %w", path, err)
	}
	// WAL: a committed delivery survives a crash of the process; a busy
	// timeout rather than SQLITE_BUSY; one connection, as River's SQLite
	// driver asks.
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)")
	if err != nil {
		unlock()
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		unlock()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := &store{kind: "sqlite", where: path, db: db, unlock: unlock}
	driver := riversqlite.New(db)
	s.newRun, s.migrate = clientFor(driver), migratorFor(driver, cfg.Logger)
	return s, s.prepare(ctx)
}

// privateQueueFiles makes the SQLite queue's files 0600 whatever the
// directory's mode (a volume mounted 0755): the queue holds whole webhook
// payloads. SQLite creates its -wal and -shm files with the database
// file's mode, so the database is created 0600 before SQLite opens it. A
// directory others can read is said in the log.
func privateQueueFiles(dir, path string, log *slog.Logger) error {
	if fi, err := os.Stat(dir); err == nil && runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 && log != nil {
		log.Warn("the data directory is open to other users: it holds the App's key and the queued deliveries; make it 0700", "dir", dir, "mode", fmt.Sprintf("%04o", fi.Mode().Perm()))
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	f.Close()
	for _, p := range []string{path, path + "-wal", path + "-shm", path + ".lock"} {
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

func clientFor[TTx any](driver riverdriver.Driver[TTx]) func(cfg *river.Config) (riverClient, error) {
	return func(cfg *river.Config) (riverClient, error) { return river.NewClient(driver, cfg) }
}

func migratorFor[TTx any](driver riverdriver.Driver[TTx], log *slog.Logger) func(ctx context.Context) (*rivermigrate.MigrateResult, error) {
	return func(ctx context.Context) (*rivermigrate.MigrateResult, error) {
		m, err := rivermigrate.New(driver, &rivermigrate.Config{Logger: quiet(log)})
		if err != nil {
			return nil, err
		}
		return m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	}
}

// quiet keeps River's own logging to warnings and errors.
func quiet(log *slog.Logger) *slog.Logger {
	if log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(levelAtLeast{log.Handler(), slog.LevelWarn})
}

type levelAtLeast struct {
	slog.Handler
	min slog.Level
}

func (l levelAtLeast) Enabled(ctx context.Context, lv slog.Level) bool {
	return lv >= l.min && l.Handler.Enabled(ctx, lv)
}

func (l levelAtLeast) WithAttrs(attrs []slog.Attr) slog.Handler {
	return levelAtLeast{l.Handler.WithAttrs(attrs), l.min}
}

func (l levelAtLeast) WithGroup(name string) slog.Handler {
	return levelAtLeast{l.Handler.WithGroup(name), l.min}
}

// redactURL keeps a database URL's password out of a message.
func redactURL(msg, url string) string {
	if i := strings.Index(url, "://"); i >= 0 {
		if at := strings.LastIndex(url, "@"); at > i {
			if colon := strings.Index(url[i+3:at], ":"); colon >= 0 {
				if pw := url[i+3+colon+1 : at]; pw != "" {
					msg = strings.ReplaceAll(msg, pw, "REDACTED")
				}
			}
		}
	}
	return msg
}

// schemaLock is the PostgreSQL advisory lock that serialises changes to
// the queue's schema: replicas started at once (a Deployment's first
// install) would otherwise create River's tables at the same moment, and
// all but one fail on a duplicate key of pg_type.
const schemaLock = 0x706c616e707200 // "planpr\0"

// serialized runs fn holding schemaLock, on PostgreSQL; SQLite's queue
// has one process already (its file lock).
func (s *store) serialized(ctx context.Context, fn func() error) error {
	if s.pool == nil {
		return fn()
	}
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", int64(schemaLock)); err != nil {
		return fmt.Errorf("waiting for the schema lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", int64(schemaLock))
	return fn()
}

// prepare makes planpr's own table: a row the health check writes.
func (s *store) prepare(ctx context.Context) error {
	return s.exec(ctx, "CREATE TABLE IF NOT EXISTS planpr_health (id INTEGER PRIMARY KEY, checked_at TEXT NOT NULL)")
}

func (s *store) exec(ctx context.Context, q string, args ...any) error {
	if s.pool != nil {
		_, err := s.pool.Exec(ctx, q, args...)
		return err
	}
	_, err := s.db.ExecContext(ctx, strings.ReplaceAll(q, "$1", "?"), args...)
	return err
}

// writable reports whether the queue can take a delivery: a write, within
// a few seconds.
func (s *store) writable(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return s.exec(ctx, "INSERT INTO planpr_health (id, checked_at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at",
		time.Now().UTC().Format(time.RFC3339Nano))
}

// depth counts the queue's jobs by state.
func (s *store) depth(ctx context.Context) (map[string]int64, error) {
	const q = "SELECT state, count(*) FROM river_job GROUP BY state"
	if s.pool != nil {
		rows, err := s.pool.Query(ctx, q)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		return countsOf(rows)
	}
	rows, err := s.db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return countsOf(rows)
}

// rows is what pgx's and database/sql's results share.
type rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// countsOf reads (name, count) rows.
func countsOf(r rows) (map[string]int64, error) {
	out := map[string]int64{}
	for r.Next() {
		var name string
		var n int64
		if err := r.Scan(&name, &n); err != nil {
			return nil, err
		}
		out[name] = n
	}
	return out, r.Err()
}

// requeueOrphans makes the jobs a crashed process left running available
// again. Only with SQLite, whose file this process holds alone: with
// PostgreSQL other replicas may be running them, and River rescues jobs
// stuck past their timeout instead.
func (s *store) requeueOrphans(ctx context.Context) (int64, error) {
	if s.kind != "sqlite" {
		return 0, nil
	}
	res, err := s.db.ExecContext(ctx, "UPDATE river_job SET state = 'available', scheduled_at = ? WHERE state = 'running'", time.Now().UTC())
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (s *store) close() {
	if s.pool != nil {
		s.pool.Close()
	}
	if s.db != nil {
		s.db.Close()
	}
	if s.unlock != nil {
		s.unlock()
	}
}

// Migrate brings the queue's database to River's current schema: `planpr
// migrate`, and every start of `planpr serve`. It returns the versions
// applied (none when it was up to date).
func Migrate(ctx context.Context, cfg StoreConfig) (applied []int, where string, err error) {
	s, err := openStore(ctx, cfg)
	if err != nil {
		return nil, "", err
	}
	defer s.close()
	res, err := s.migrate(ctx)
	if err != nil {
		return nil, s.where, err
	}
	for _, v := range res.Versions {
		applied = append(applied, v.Version)
	}
	return applied, s.where, nil
}

// openStoreReadOnly opens the queue to read it beside a running serve: the
// SQLite file read-only, without its lock (WAL lets a reader in while the
// writer works); PostgreSQL as serve does. Nothing is migrated: a queue
// serve never opened is said so.
func openStoreReadOnly(ctx context.Context, cfg StoreConfig) (*store, error) {
	if cfg.DatabaseURL != "" {
		return openStore(ctx, cfg)
	}
	path := filepath.Join(cmp.Or(cfg.DataDir, "planpr-data"), "queue.db")
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("no queue at %s: has planpr serve run with this PLANPR_DATA_DIR? (%w)", path, err)
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := &store{kind: "sqlite", where: path, db: db}
	driver := riversqlite.New(db)
	s.newRun, s.migrate = clientFor(driver), migratorFor(driver, cfg.Logger)
	return s, nil
}
