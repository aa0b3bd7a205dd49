#!/usr/bin/env bash
# CI: Arena installed with `pip install` (not editable) into a fresh venv, from a copy of the
# checkout's files, run in an empty folder: the commands work, and every page of the site
# answers without a server error (.ci/fetch_pages.py).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The files git knows (tracked, or new and not ignored), not the checkout's build leftovers.
mkdir "$work/src" "$work/site"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard \
  | xargs -0 -I{} sh -c 'test -e "$1" && printf "%s\0" "$1"' _ {} \
  | tar -c --null -T - -f -) | tar -x -C "$work/src"

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet "$work/src" 2> >(grep -v '^WARNING: Location' >&2)
arena="$work/venv/bin/arena"
py="$work/venv/bin/python"
cd "$work/site"

echo "== what the wheel holds"
"$py" - <<'EOF'
import importlib.util, sys
from importlib.metadata import files
found = [str(f) for f in files("arena") or ()]
for top in ("bench", "tests"):
    if importlib.util.find_spec(top) is not None or any(f.startswith(top + "/") for f in found):
        sys.exit(f"{top}/ is in the installed package: it belongs to the checkout only")
print(f"{len(found)} files; no bench/, no tests/")
EOF

echo "== commands"
run() { echo "\$ arena $*"; "$arena" "$@"; }
run db upgrade
run games
table_id="$("$arena" table create belote --players 4 --seed 1)"
echo "table $table_id"
run table show "$table_id" --as player1 >/dev/null
run simulate belote --games 1 --json 2>/dev/null
run i18n check belote --quiet
mkdir scaffolded
run new-game ci_smoke --dir scaffolded >/dev/null
test -f scaffolded/ci_smoke/dbmodel.sql && test -f scaffolded/ci_smoke/help/en.md \
  && test -f scaffolded/ci_smoke/tests/test_ci_smoke.py
rm -rf scaffolded

echo "== every page"
port="$("$py" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$arena" serve --port "$port" >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
  if "$py" -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$port/', timeout=2)" 2>/dev/null; then
    break
  fi
  if ! kill -0 "$server_pid" 2>/dev/null; then cat "$work/serve.log" >&2; exit 1; fi
  sleep 0.2
done
table_id="$("$arena" table create belote --players 4 --seed 2)"
status=0
"$py" "$repo/.ci/fetch_pages.py" --base "http://127.0.0.1:$port" --table "$table_id" --game belote || status=$?
if [ "$status" -ne 0 ]; then
  echo "--- server log" >&2
  tail -n 60 "$work/serve.log" >&2
fi
exit "$status"
