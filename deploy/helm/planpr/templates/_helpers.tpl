{{- define "planpr.name" -}}{{ .Release.Name }}-planpr{{- end -}}
{{- define "planpr.labels" -}}
app.kubernetes.io/name: planpr
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}
{{- define "planpr.selector" -}}
app.kubernetes.io/name: planpr
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}
{{- define "planpr.appSecret" -}}{{ .Values.app.existingSecret | default (include "planpr.name" .) }}{{- end -}}
{{- define "planpr.postgres" -}}{{ or .Values.postgres.url .Values.postgres.existingSecret }}{{- end -}}
{{- define "planpr.databaseSecret" -}}{{ .Values.postgres.existingSecret | default (printf "%s-database" (include "planpr.name" .)) }}{{- end -}}
