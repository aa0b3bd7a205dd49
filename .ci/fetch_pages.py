"""Fetch every GET page of a running Arena site, signed out and signed in; fail on a 5xx.

Run with the Python of the installed site (it reads the routes from the installed package's
url_map): ``python fetch_pages.py --base http://127.0.0.1:PORT --table ID --game belote``.
Pages' own ``/static/`` links are fetched too, and one that is missing (404) fails as well.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import re
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

# Signs that a page broke on the server although it answered (a template or file missing).
BROKEN_MARKERS = ("TemplateNotFound", "jinja2.exceptions", "Traceback (most recent call last)")
STREAMS = {"play.events"}  # server-sent events: only the status and the first bytes are read


class Fetcher:
    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar),
                                                  _NoRedirect())
        self.failures: list[str] = []
        self.fetched = 0

    def request(self, method: str, path: str, data: bytes | None = None,
                headers: dict[str, str] | None = None, stream: bool = False) -> tuple[int, str]:
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers or {})
        try:
            resp = self.opener.open(req, timeout=5 if stream else 30)
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode("utf-8", "replace")
        with resp:
            body = resp.read(200) if stream else resp.read()
            return resp.status, body.decode("utf-8", "replace")

    def get(self, path: str, label: str, stream: bool = False, asset: bool = False) -> str:
        try:
            status, body = self.request("GET", path, stream=stream)
        except (TimeoutError, urllib.error.URLError) as err:
            status, body = 0, f"no answer: {err}"
        self.fetched += 1
        broken = [m for m in BROKEN_MARKERS if m in body]
        bad = status >= 500 or status == 0 or bool(broken) or (asset and status != 200)
        print(f"{'FAIL' if bad else 'ok  '} {status:3d} GET {path}  [{label}]"
              + (f"  {broken}" if broken else ""))
        if bad:
            self.failures.append(f"{status} GET {path} [{label}]: {body[:300]!r}")
        return body

    def csrf(self) -> str:
        status, body = self.request("GET", "/login")
        match = re.search(r'name="csrf_token"\s+value="([^"]+)"', body) or re.search(
            r'value="([^"]+)"\s+name="csrf_token"', body)
        if not match:
            raise SystemExit(f"no CSRF token on /login ({status}): {body[:300]!r}")
        return match.group(1)

    def post_form(self, path: str, fields: dict[str, str]) -> int:
        fields = {**fields, "csrf_token": self.csrf()}
        status, body = self.request("POST", path, urllib.parse.urlencode(fields).encode(),
                                    {"Content-Type": "application/x-www-form-urlencoded"})
        print(f"     {status:3d} POST {path}")
        if status >= 400:
            raise SystemExit(f"POST {path} answered {status}: {body[:300]!r}")
        return status

    def post_json(self, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        status, body = self.request("POST", path, json.dumps(payload).encode(),
                                    {"Content-Type": "application/json", "X-CSRF-Token": self.csrf()})
        print(f"     {status:3d} POST {path}")
        if status >= 400:
            raise SystemExit(f"POST {path} answered {status}: {body[:300]!r}")
        result: dict[str, Any] = json.loads(body)
        return result


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer of its own (a page asking to sign in is not an error)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def site_routes(game: str) -> tuple[list[tuple[str, str, list[str]]], list[str], list[str]]:
    """(endpoint, rule, arguments) of every GET route, the framework's static files and the
    game's, as the installed package has them."""
    from framework.web import create_app

    with tempfile.TemporaryDirectory() as scratch:
        app = create_app({"ARENA_INSTANCE": scratch, "SECRET_KEY": "routes-only"})
        routes = sorted((r.endpoint, r.rule, sorted(r.arguments)) for r in app.url_map.iter_rules()
                        if "GET" in (r.methods or ()))
        static_dir = Path(app.static_folder or "")
        game_dir = app.extensions["arena"].registry.get(game).directory / "static"
        return routes, _files_in(static_dir), _files_in(game_dir)


def _files_in(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def fill(rule: str, values: dict[str, str]) -> str:
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", lambda m: values[m.group(1)], rule)


def local_assets(body: str) -> set[str]:
    return set(re.findall(r'(?:src|href)="(/(?:static|table/\d+/static)/[^"?#]+)', body))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--table", required=True, type=int)
    parser.add_argument("--game", default="belote")
    args = parser.parse_args()

    routes, framework_static, game_static = site_routes(args.game)
    if not game_static:
        print(f"the installed {args.game} has no static files", file=sys.stderr)
        return 1
    web = Fetcher(args.base)

    # Ids to fill the routes with: the table made by `arena table create`, one of its test
    # players, a bug report made here, an account registered here.
    players = json.loads(web.get(f"/table/{args.table}/players", "setup"))
    seated = players["players"] if isinstance(players, dict) else players
    seat_id = str(seated[0]["id"])
    bug = web.post_json(f"/table/{args.table}/studio/bug", {"text": "CI: every page of the installed site"})
    web.post_form("/register", {"name": "ci-visitor", "password": "ci-visitor-pw"})
    web.post_form("/logout", {})

    values = {"table_id": str(args.table), "game": args.game, "player_id": seat_id,
              "bug_id": str(bug["bug_id"]), "open_id": "1", "slot": "1"}
    assets: set[str] = set()
    for signed_in in (False, True):
        if signed_in:
            web.post_form("/login", {"name": "ci-visitor", "password": "ci-visitor-pw"})
        who = "signed in" if signed_in else "signed out"
        for endpoint, rule, arguments in routes:
            if endpoint == "static":
                paths = [f"/static/arena/{name}" for name in framework_static]
            elif endpoint == "play.game_static":
                paths = [fill(rule, {**values, "filename": name}) for name in game_static]
            else:
                paths = [fill(rule, values)]
                if "table_id" in arguments:  # and as one of the table's players (studio)
                    paths.append(paths[0] + f"?as={seat_id}")
            for path in paths:
                body = web.get(path, f"{endpoint}, {who}", stream=endpoint in STREAMS,
                               asset=endpoint in ("static", "play.game_static"))
                assets |= local_assets(body)
    for path in sorted(assets):
        web.get(path, "linked from a page", asset=True)
    web.post_form("/logout", {})

    print(f"{web.fetched} fetches, {len(web.failures)} failure(s)")
    for failure in web.failures:
        print("  " + failure, file=sys.stderr)
    return 1 if web.failures else 0


if __name__ == "__main__":
    sys.exit(main())
