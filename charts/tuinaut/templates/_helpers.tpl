{{/* Names and labels shared by every template. */}}

{{- define "tuinaut.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "tuinaut.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else if contains (include "tuinaut.name" .) .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name (include "tuinaut.name" .) | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}

{{- define "tuinaut.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tuinaut.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "tuinaut.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "tuinaut.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: tuinaut
{{- end }}

{{- define "tuinaut.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "tuinaut.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "tuinaut.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* Namespaces holding Evaluations, for the NetworkPolicy: explicit, else watched, else the release's. */}}
{{- define "tuinaut.policyNamespaces" -}}
{{- $ns := .Values.networkPolicy.namespaces | default .Values.operator.watchNamespaces | default (list .Release.Namespace) }}
{{- toJson $ns }}
{{- end }}
