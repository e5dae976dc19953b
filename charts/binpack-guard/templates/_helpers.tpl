{{/* Names, labels and shared fragments. */}}

{{- define "binpack-guard.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
Base name for every object; cluster-scoped objects use it too, so it carries the release name. The Service
takes it as its name, which the apiserver requires to be a DNS-1035 label; Helm allows release names it
refuses (a leading digit, dots), so say so here instead of failing halfway through the install.
*/}}
{{- define "binpack-guard.fullname" -}}
{{- $full := "" }}
{{- if .Values.fullnameOverride }}
{{- $full = .Values.fullnameOverride | trunc 50 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- $full = .Release.Name | trunc 50 | trimSuffix "-" }}
{{- else }}
{{- $full = printf "%s-%s" .Release.Name $name | trunc 50 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- if not (regexMatch "^[a-z]([-a-z0-9]*[a-z0-9])?$" $full) }}
{{- fail (printf "the objects would be named %q, which is not a valid Service name (a DNS-1035 label: a-z, 0-9 and '-', starting with a letter): choose another release name or set fullnameOverride" $full) }}
{{- end }}
{{- $full }}
{{- end }}

{{- define "binpack-guard.selectorLabels" -}}
app.kubernetes.io/name: {{ include "binpack-guard.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "binpack-guard.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "binpack-guard.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "binpack-guard.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "binpack-guard.tlsSecret" -}}{{ include "binpack-guard.fullname" . }}-tls{{- end }}
{{- define "binpack-guard.caSecret" -}}{{ include "binpack-guard.fullname" . }}-ca{{- end }}
{{- define "binpack-guard.certsName" -}}{{ include "binpack-guard.fullname" . }}-certs{{- end }}

{{/*
The rotation CronJob's name. The apiserver refuses a CronJob name over 52 characters (its Jobs get an
11-character "-<minutes>" suffix and a Job name must fit 63), and a fullname may have 50: a longer
fullname is cut to 40 characters plus 5 of its sha256, so two long releases in one namespace still differ.
*/}}
{{- define "binpack-guard.certsCronJobName" -}}
{{- $name := include "binpack-guard.certsName" . }}
{{- if le (len $name) 52 }}
{{- $name }}
{{- else }}
{{- $fullname := include "binpack-guard.fullname" . }}
{{- printf "%s-%s-certs" ($fullname | trunc 40 | trimSuffix "-") ($fullname | sha256sum | trunc 5) }}
{{- end }}
{{- end }}

{{/* The Service DNS names the serving certificate must carry. */}}
{{- define "binpack-guard.dnsNames" -}}
{{- $svc := include "binpack-guard.fullname" . }}
- {{ $svc }}
- {{ $svc }}.{{ .Release.Namespace }}
- {{ $svc }}.{{ .Release.Namespace }}.svc
- {{ $svc }}.{{ .Release.Namespace }}.svc.{{ .Values.clusterDomain }}
{{- end }}

{{/* Namespaces skipped by the namespaced webhooks: the configured list plus the release namespace. */}}
{{- define "binpack-guard.namespaceSelector" -}}
{{- include "binpack-guard.exemptNamespaces" . }}
  - key: {{ .Values.webhooks.optOutLabel | quote }}
    operator: NotIn
    values: ["true"]
{{- end }}

{{/* The exempt namespaces only (no opt-out label): the pod webhook's selector when it enforces priorities. */}}
{{- define "binpack-guard.exemptNamespaces" -}}
matchExpressions:
  - key: kubernetes.io/metadata.name
    operator: NotIn
    values:
      {{- range (append .Values.webhooks.namespaceExemptions .Release.Namespace | uniq) }}
      - {{ . | quote }}
      {{- end }}
{{- end }}

{{/* One scoring source (kubeScheduler or volcano): "" when unset, else "<configmap>|<key>|<file name>". */}}
{{- define "binpack-guard.scoringSource" -}}
{{- $src := index .root.Values.scoring .kind }}
{{- if and $src.inline $src.existingConfigMap.name }}
{{- fail (printf "scoring.%s: set either inline or existingConfigMap.name, not both" .kind) }}
{{- end }}
{{- if $src.inline }}
{{- printf "%s-scoring|%s|%s" (include "binpack-guard.fullname" .root) .file .file }}
{{- else if $src.existingConfigMap.name }}
{{- printf "%s|%s|%s" $src.existingConfigMap.name $src.existingConfigMap.key .file }}
{{- end }}
{{- end }}

{{/*
RBAC rules of the certs Jobs, shared by the permanent Role used by the CronJob and the hook Role used by
the install/upgrade Jobs. Secrets: get/update only the two Secrets by name; create cannot be limited by
resourceNames (the object has no name yet when RBAC is checked), so it is granted in this namespace only.
*/}}
{{- define "binpack-guard.certsNamespacedRules" -}}
- apiGroups: [""]
  resources: [secrets]
  resourceNames: [{{ include "binpack-guard.caSecret" . | quote }}, {{ include "binpack-guard.tlsSecret" . | quote }}]
  verbs: [get, update]
- apiGroups: [""]
  resources: [secrets]
  verbs: [create]
{{- end }}

{{/* get to read caBundle and the owner uid, patch to write caBundle; only this release's two configurations. */}}
{{- define "binpack-guard.certsClusterRules" -}}
- apiGroups: [admissionregistration.k8s.io]
  resources: [mutatingwebhookconfigurations, validatingwebhookconfigurations]
  resourceNames: [{{ include "binpack-guard.fullname" . | quote }}]
  verbs: [get, patch]
{{- end }}

{{/* Arguments of `binpack-webhook certs`, identical for the hook Jobs and the CronJob. */}}
{{- define "binpack-guard.certsArgs" -}}
{{- if ge (int .Values.certs.servingValidityDays) (int .Values.certs.caValidityDays) }}
{{- fail "certs.servingValidityDays must be shorter than certs.caValidityDays" }}
{{- end -}}
- certs
- --namespace={{ .Release.Namespace }}
- --service={{ include "binpack-guard.fullname" . }}
- --cluster-domain={{ .Values.clusterDomain }}
- --ca-secret={{ include "binpack-guard.caSecret" . }}
- --tls-secret={{ include "binpack-guard.tlsSecret" . }}
- --mutating-webhook-configuration={{ include "binpack-guard.fullname" . }}
- --validating-webhook-configuration={{ include "binpack-guard.fullname" . }}
- --owner-mutating-webhook-configuration={{ include "binpack-guard.fullname" . }}
- --serving-validity-days={{ .Values.certs.servingValidityDays }}
- --ca-validity-days={{ .Values.certs.caValidityDays }}
{{- end }}

{{/* Pod spec of a certs run (hook Job or CronJob); .sa is the ServiceAccount to run as. */}}
{{- define "binpack-guard.certsPodSpec" -}}
{{- $root := .root -}}
serviceAccountName: {{ .sa }}
# The token is needed: the run reads and writes Secrets and patches the webhook configurations.
automountServiceAccountToken: true
restartPolicy: Never
{{- with $root.Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml $root.Values.podSecurityContext | nindent 2 }}
{{- with $root.Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with $root.Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
containers:
  - name: certs
    image: {{ include "binpack-guard.image" $root }}
    imagePullPolicy: {{ $root.Values.image.pullPolicy }}
    command: [binpack-webhook]
    args:
      {{- include "binpack-guard.certsArgs" $root | nindent 6 }}
    securityContext:
      {{- toYaml $root.Values.securityContext | nindent 6 }}
    resources:
      {{- toYaml $root.Values.certs.resources | nindent 6 }}
{{- end }}
