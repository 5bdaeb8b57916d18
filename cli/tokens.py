"""`fupan token create | list | revoke`: bearer tokens (docs/SECURITY.md), issued by the trusted local user."""

from __future__ import annotations

import argparse
import json
import sys

from cli.common import open_service
from domain.kernel.errors import Refusal
from domain.model.token import LOCAL, ROLES


def cmd_token_create(args: argparse.Namespace) -> int:
    """The bearer token alone on stdout (`TOKEN=$(fupan token create …)`); what it is on stderr."""
    service = open_service(args.db)
    try:
        token, bearer = service.tokens.create(args.role, args.match or [], args.label, LOCAL.recorded_by)
    except Refusal as error:
        print(f"fupan token: {error.message}", file=sys.stderr)
        return 1
    scope = f" for matches {', '.join(token['matches'])}" if token["matches"] else ""
    print(bearer, flush=True)
    print(f"fupan token: created {token['role']} token {token['id']}{scope}; the line above is its only copy.",
          file=sys.stderr)
    return 0


def cmd_token_list(args: argparse.Namespace) -> int:
    for token in open_service(args.db).tokens.all():
        if args.json:
            print(json.dumps(token, ensure_ascii=False))
            continue
        state = f"revoked {token['revoked_at']} by {token['revoked_by']['role']}" if token["revoked"] else "active"
        issuer = token["created_by"]
        by = issuer["role"] + (f" {issuer['token_id']}" if issuer["token_id"] else "")
        print(f"{token['id']}  {token['role']:<9}  {state}  created {token['created_at']} by {by}"
              + (f"  matches {','.join(token['matches'])}" if token["matches"] else "")
              + (f"  {token['label']!r}" if token["label"] else ""))
    return 0


def cmd_token_revoke(args: argparse.Namespace) -> int:
    try:
        token, changed = open_service(args.db).tokens.revoke(args.id, LOCAL.recorded_by)
    except Refusal as error:
        print(f"fupan token: {error.message}", file=sys.stderr)
        return 1
    print(f"fupan token: {token['id']} {'revoked' if changed else 'was already revoked'}")
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    """The `token` command and its subcommands."""
    token = commands.add_parser("token", help="issue, list and revoke bearer tokens (docs/SECURITY.md)")
    token_commands = token.add_subparsers(dest="token_command", required=True)
    create = token_commands.add_parser("create", help="issue a token; prints it once")
    create.add_argument("--role", required=True, choices=ROLES)
    create.add_argument("--match", action="extend", nargs="+", metavar="ID", help="matches a referee token records")
    create.add_argument("--label", default="", help="who holds it, e.g. 'table 3 scorer'")
    create.add_argument("--db")
    create.set_defaults(handler=cmd_token_create)
    lister = token_commands.add_parser("list", help="every token, who issued it and whether it is revoked")
    lister.add_argument("--json", action="store_true", help="one JSON line per token")
    lister.add_argument("--db")
    lister.set_defaults(handler=cmd_token_list)
    revoke = token_commands.add_parser("revoke", help="revoke a token by id")
    revoke.add_argument("id")
    revoke.add_argument("--db")
    revoke.set_defaults(handler=cmd_token_revoke)
