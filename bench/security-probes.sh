#!/bin/bash
# Probes of the HTTP protections (docs/security.md) against a freshly started server with the built
# app (npm run build first): where e-mailed links point under forged Host and X-Forwarded-* headers,
# the security headers on pages, assets, the service worker, the API and tiles, cross-origin writes
# with a cookie session, and whether X-Forwarded-For splits the sign-in limit of one socket.
# Usage: bench/security-probes.sh [port]   (default 8099; prints its figures, leaves nothing behind)
set -u
cd "$(dirname "$0")/.."
D=$(mktemp -d); P=${1:-8099}; B="http://127.0.0.1:$P"
DATA_DIR=$D HOST=127.0.0.1 PORT=$P ADMIN_EMAIL=admin@probe.test ADMIN_PASSWORD=probe-password-1 LOG_LEVEL=warn WORKER=off node --import tsx src/server/main.ts > $D/server.log 2>&1 &
SP=$!
for _ in $(seq 1 180); do grep -q "running at" $D/server.log && break; sleep 1; done
link() { sleep 0.5; ls $D/mail | sort | tail -1 | xargs -I{} sed -e 's/=\r$//' -e 's/=3D/=/g' $D/mail/{} | tr -d '\n\r' | grep -o 'https\?://[^ ]*?token=' | head -1; }
J='content-type: application/json'
echo "## links"
curl -s -o /dev/null -H "$J" -H 'x-forwarded-host: evil.example' -H 'x-forwarded-proto: https' -d '{"email":"admin@probe.test"}' $B/v2/auth/forgot-password; echo "X-Forwarded-Host evil.example -> $(link)"
curl -s -o /dev/null -H "$J" -H 'host: evil.example' -d '{"email":"admin@probe.test"}' $B/v2/auth/forgot-password; echo "Host evil.example -> $(link)"
curl -s -o /dev/null -H "$J" -H 'host: localhost:6666' -d '{"email":"admin@probe.test"}' $B/v2/auth/forgot-password; echo "Host localhost:6666 -> $(link)"
curl -s -o /dev/null -H "$J" -d '{"email":"admin@probe.test"}' $B/v2/auth/forgot-password; echo "Host 127.0.0.1:$P -> $(link)"
echo "## headers"
ASSET=$(grep -o '/assets/index-[^"]*\.js' dist/index.html | head -1)
for u in / /slides $ASSET /sw.js /manifest.webmanifest /v2/health /v2/images/00000000-0000-4000-8000-000000000000/tiles/layers.json; do
  h=$(curl -s -D - -o /dev/null $B$u | tr -d '\r')
  printf '%s %s | CSP:%s | nosniff:%s | referrer:%s | HSTS:%s\n' "$(echo "$h" | head -1 | cut -d' ' -f2)" "$u" \
    "$(echo "$h" | grep -ci '^content-security-policy:.*script-src .self.;.*frame-ancestors .none.')" \
    "$(echo "$h" | grep -ci '^x-content-type-options: nosniff')" \
    "$(echo "$h" | grep -i '^referrer-policy:' | cut -d' ' -f2)" \
    "$(echo "$h" | grep -ci '^strict-transport-security')"
done
echo "CSP: $(curl -s -D - -o /dev/null $B/ | tr -d '\r' | grep -i '^content-security-policy:' | cut -d' ' -f2-)"
echo "X-Forwarded-Proto https from an untrusted sender -> HSTS:$(curl -s -D - -o /dev/null -H 'x-forwarded-proto: https' $B/v2/health | grep -ci '^strict-transport-security')"
echo "## cross-origin writes (cookie session)"
JAR=$D/jar; LOGIN=$(curl -s -c $JAR -H "$J" -d "{\"email\":\"admin@probe.test\",\"password\":\"probe-password-1\"}" $B/v2/auth/login); TOKEN=$(echo "$LOGIN" | grep -o "\"accessToken\":{\"token\":\"[^\"]*" | cut -d\" -f6)
CREATED=$(curl -s -b $JAR -H "$J" -H "sec-fetch-site: same-origin" -d "{\"user\":{\"email\":\"invitee@probe.test\"}}" $B/v2/users); UID2=$(echo "$CREATED" | grep -o "\"id\":\"[^\"]*" | head -1 | cut -d\" -f4)
w() { printf '%-62s %s\n' "$1" "$(curl -s -o /dev/null -w '%{http_code}' -X POST "${@:2}")"; }
w 'resend, Origin http://127.0.0.1:6666' -b $JAR -H 'origin: http://127.0.0.1:6666' $B/v2/users/$UID2/invitation
w 'resend, Sec-Fetch-Site same-site' -b $JAR -H 'sec-fetch-site: same-site' -H 'origin: http://127.0.0.1:6666' $B/v2/users/$UID2/invitation
w 'resend, Sec-Fetch-Site cross-site' -b $JAR -H 'sec-fetch-site: cross-site' -H 'origin: https://evil.example' $B/v2/users/$UID2/invitation
w 'sign-out, Origin http://127.0.0.1:6666' -b $JAR -H 'origin: http://127.0.0.1:6666' $B/v2/auth/logout
w 'resend, Sec-Fetch-Site same-origin' -b $JAR -H 'sec-fetch-site: same-origin' -H "origin: $B" $B/v2/users/$UID2/invitation
w "resend, Origin $B (no Sec-Fetch-Site)" -b $JAR -H "origin: $B" $B/v2/users/$UID2/invitation
w 'resend, cookie, neither header (a program)' -b $JAR $B/v2/users/$UID2/invitation
w 'resend, bearer token, Origin https://evil.example' -H "authorization: Bearer $TOKEN" -H 'origin: https://evil.example' $B/v2/users/$UID2/invitation
echo "## client address (21 failed sign-ins, each with its own X-Forwarded-For, from one socket)"
codes=""
for i in $(seq 1 21); do codes="$codes $(curl -s -o /dev/null -w '%{http_code}' -H "$J" -H "x-forwarded-for: 203.0.113.$i" -d "{\"email\":\"nobody$i@probe.test\",\"password\":\"wrong-password\"}" $B/v2/auth/login)"; done
echo "statuses:$codes"
kill $SP; wait $SP 2>/dev/null; rm -rf $D
