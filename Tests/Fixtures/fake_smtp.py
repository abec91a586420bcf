"""A real SMTP server on loopback for the tests (aiosmtpd): STARTTLS or implicit TLS with the tests'
certificate, AUTH PLAIN/LOGIN required (after TLS) when a user is given. Each message it accepts is parsed
with Python's own email package and written as JSON to the output directory, so the tests check the MIME
with a parser that is not ours. Recipients script failures: bounce@… is refused at RCPT (550), later@… at
the end of DATA (451).

Usage: fake_smtp.py --security starttls|tls|none --cert C --key K --out DIR [--user U --password P] [--login-only]
Prints "PORT <n>" once it listens; stops when stdin closes.
"""
import argparse
import asyncio
import json
import os
import socket
import ssl
import sys
from email import policy
from email.parser import BytesParser

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

parser = argparse.ArgumentParser()
parser.add_argument("--security", default="starttls")
parser.add_argument("--cert")
parser.add_argument("--key")
parser.add_argument("--out")
parser.add_argument("--user")
parser.add_argument("--password")
parser.add_argument("--login-only", action="store_true", help="offer AUTH LOGIN, not PLAIN")
args = parser.parse_args()


class Handler:
    def __init__(self):
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("bounce@"):
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if any(address.startswith("later@") for address in envelope.rcpt_tos):
            return "451 4.3.0 Try again later"
        message = BytesParser(policy=policy.default).parsebytes(envelope.original_content)
        parts = []
        for part in message.walk():
            if part.is_multipart():
                continue
            parts.append({"contentType": part.get_content_type(), "charset": part.get_content_charset(), "content": part.get_content()})
        self.count += 1
        record = {
            "mailFrom": envelope.mail_from,
            "rcptTos": envelope.rcpt_tos,
            "tls": server.transport.get_extra_info("ssl_object") is not None,
            "authenticated": bool(session.authenticated),
            "from": str(message["From"]),
            "to": str(message["To"]),
            "subject": str(message["Subject"]),
            "messageId": str(message["Message-ID"]),
            "date": str(message["Date"]),
            "contentType": message.get_content_type(),
            "headers": {name: str(value) for name, value in message.items()},
            "parts": parts,
            "defects": [type(defect).__name__ for defect in message.defects],
            "raw": envelope.original_content.decode("ascii", errors="replace"),
        }
        path = os.path.join(args.out, "%04d.json" % self.count)
        with open(path + ".tmp", "w") as file:
            json.dump(record, file)
        os.rename(path + ".tmp", path)
        return "250 2.0.0 Message accepted"


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == args.user and auth_data.password.decode() == args.password
    return AuthResult(success=ok, handled=False)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


context = None
if args.security != "none":
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(args.cert, args.key)

options = {}
if args.user:
    # Over implicit TLS aiosmtpd does not know the connection is encrypted; the socket is, from the start.
    options.update(authenticator=authenticator, auth_required=True, auth_require_tls=args.security == "starttls")
if args.login_only:
    options.update(auth_exclude_mechanism=["PLAIN"])
if args.security == "starttls":
    options.update(tls_context=context, require_starttls=True)
elif args.security == "tls":
    options.update(ssl_context=context, server_hostname="localhost")

port = free_port()
controller = Controller(Handler(), hostname="127.0.0.1", port=port, **options)
controller.start()
print("PORT %d" % port, flush=True)
sys.stdin.read()
controller.stop()
