#!/usr/bin/env bash
# Creates, or updates, what the manifests reference but do not hold: one Secret per purpose, each read by the
# processes that use it alone, and the ConfigMap puente-service-keys (every process's public key, not secret). From
# one env file of KEY=value lines: the output of `npm run secrets`, the servers' URLs and the first admin's password
# (puente-secrets.env.example):
#
#   npm run --silent secrets > ~/puente-secrets.env            # outside the repository; keep it safe
#   cat infra/k8s/overlays/example/puente-secrets.env.example >> ~/puente-secrets.env   # then fill in every <...>
#   infra/k8s/create-secrets.sh ~/puente-secrets.env [namespace]                        # namespace: puente
#
# Nothing is created unless every required key is there with a value. Values reach kubectl in files, never on its
# command line. KUBECTL names another kubectl. REDIS_PASSWORD and GRAFANA_ADMIN_PASSWORD, which `npm run secrets`
# prints for docker compose, are not used here (REDIS_URL carries Redis's password).
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 <env file> [namespace, default puente]" >&2
  exit 2
fi
file=$1
namespace=${2:-puente}
kubectl=${KUBECTL:-kubectl}

# <Secret> <required|optional> <key in the Secret>[=<key in the file>] ...
secrets=(
  "puente-session required SESSION_SECRET"
  "puente-bank-keys required BANK_ENCRYPTION_KEYS"
  "puente-totp-keys required TOTP_ENCRYPTION_KEYS"
  "puente-oauth-cookie required OAUTH_COOKIE_SECRET"
  "puente-login-challenge required LOGIN_CHALLENGE_SECRET"
  "puente-attachment-keys required ATTACHMENT_ENCRYPTION_KEYS"
  "puente-id-document-keys required ID_DOCUMENT_KEYS"
  "puente-signing-gateway required SERVICE_SIGNING_KEY=GATEWAY_SIGNING_KEY"
  "puente-signing-identity required SERVICE_SIGNING_KEY=IDENTITY_SIGNING_KEY"
  "puente-signing-accounts required SERVICE_SIGNING_KEY=ACCOUNTS_SIGNING_KEY"
  "puente-signing-exchange required SERVICE_SIGNING_KEY=EXCHANGE_SIGNING_KEY"
  "puente-signing-rating required SERVICE_SIGNING_KEY=RATING_SIGNING_KEY"
  "puente-signing-notification required SERVICE_SIGNING_KEY=NOTIFICATION_SIGNING_KEY"
  "puente-signing-subscription required SERVICE_SIGNING_KEY=SUBSCRIPTION_SIGNING_KEY"
  "puente-signing-audit required SERVICE_SIGNING_KEY=AUDIT_SIGNING_KEY"
  "puente-database required DATABASE_URL"
  "puente-redis required REDIS_URL"
  "puente-smtp required SMTP_URL"
  "puente-admin-password required ADMIN_PASSWORD"
  "puente-admin optional ADMIN_EMAIL ADMIN_REFERRAL_CODE"
  "puente-google optional GOOGLE_CLIENT_ID GOOGLE_CLIENT_SECRET"
  "puente-stripe optional STRIPE_SECRET_KEY STRIPE_WEBHOOK_SECRET"
  "puente-attachment-s3 optional AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY"
)
configmap="puente-service-keys required SERVICE_PUBLIC_KEYS"
unused="REDIS_PASSWORD GRAFANA_ADMIN_PASSWORD"

# The file, read as data (never run by the shell): KEY=value, one pair of surrounding quotes dropped.
if [ ! -r "$file" ]; then
  echo "$file: cannot read it" >&2
  exit 2
fi
declare -A value=()
number=0
while IFS= read -r line || [ -n "$line" ]; do
  number=$((number + 1))
  line=${line%$'\r'}
  [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
  if [[ ! $line =~ ^(export[[:space:]]+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$ ]]; then
    echo "$file:$number: not a KEY=value line" >&2
    exit 2
  fi
  name=${BASH_REMATCH[2]}
  text=${BASH_REMATCH[3]}
  if [[ $text =~ ^\"(.*)\"$ ]] || [[ $text =~ ^\'(.*)\'$ ]]; then text=${BASH_REMATCH[1]}; fi
  value[$name]=$text
done <"$file"

# Every required key with a value, no <placeholder> left: else say each problem and create nothing.
problems=()
known=" $unused "
for entry in "${secrets[@]}" "$configmap"; do
  read -r -a words <<<"$entry"
  for pair in "${words[@]:2}"; do
    from=${pair#*=}
    known+="$from "
    if [ -z "${value[$from]+set}" ]; then
      [ "${words[1]}" = required ] && problems+=("$from is missing (${words[0]})")
    elif [ -z "${value[$from]}" ]; then
      problems+=("$from is empty: give it a value, or leave the line out if it is optional")
    elif [[ ${value[$from]} =~ \<[^\>]*\> ]]; then
      problems+=("$from still holds a <placeholder>")
    fi
  done
done
if [ ${#problems[@]} -gt 0 ]; then
  for problem in "${problems[@]}"; do echo "$file: $problem" >&2; done
  echo "Nothing was created." >&2
  exit 1
fi
for name in "${!value[@]}"; do
  [[ $known == *" $name "* ]] || echo "$file: $name is not used by the manifests (ignored)" >&2
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
umask 077

# `kubectl create … --dry-run=client -o yaml | kubectl apply`: creates the object, or updates one already there.
apply() {
  local kind=$1 name=$2 args=() pair key from
  shift 2
  for pair in "$@"; do
    key=${pair%%=*}
    from=${pair#*=}
    [ -n "${value[$from]+set}" ] || continue
    printf '%s' "${value[$from]}" >"$work/$name.$key"
    args+=("--from-file=$key=$work/$name.$key")
  done
  [ ${#args[@]} -gt 0 ] || return 0
  if [ "$kind" = secret ]; then
    "$kubectl" -n "$namespace" create secret generic "$name" "${args[@]}" --dry-run=client -o yaml | "$kubectl" -n "$namespace" apply -f -
  else
    "$kubectl" -n "$namespace" create configmap "$name" "${args[@]}" --dry-run=client -o yaml | "$kubectl" -n "$namespace" apply -f -
  fi
}

for entry in "${secrets[@]}"; do
  read -r -a words <<<"$entry"
  apply secret "${words[0]}" "${words[@]:2}"
done
read -r -a words <<<"$configmap"
apply configmap "${words[0]}" "${words[@]:2}"

echo "Running pods read these at their next start: kubectl -n $namespace rollout restart deployment"
