#!/usr/bin/env python3
"""A receiver of the A&D Logbook Service's webhooks in Python, standard library only.

It verifies X-SVC-Signature over the raw body in constant time, processes each delivery once
(deduplicated in SQLite on the SHA-256 digest of the body: a retry carries the same bytes, and so
does a delivery replayed under a new X-SVC-Delivery), and answers as the service expects: 2xx
within 5 seconds, 401 to a missing or wrong signature, and 500 when processing fails, so that the
service retries.

    FFLKIT_WEBHOOK_SECRET=whsec_... python3 receiver.py    # http://127.0.0.1:3000/webhooks

In your application (Django, Flask, FastAPI...), keep `receive()` and `DeliveryStore`: give
`receive()` the raw body bytes and the request's headers, and send back the status and the JSON
body it returns. Replace `handle_event()` with your own code.
"""

import hashlib
import hmac
import json
import os
import re
import signal
import sqlite3
import sys
import time
from contextlib import closing
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

SECRET_PREFIX = "whsec_"
SIGNATURE = re.compile(r"sha256=[0-9a-f]{64}")
RECEIPT_EVENTS = {"receipt.created", "receipt.updated", "receipt.disposed", "receipt.deleted"}
MAX_BODY_BYTES = 1024 * 1024
# A body over MAX_BODY_BYTES is read and dropped, never kept, up to this, so that its sender reads
# the 413 instead of a connection broken while it still writes; past this, the connection closes.
DISCARD_BYTES = 16 * 1024 * 1024
# A claim whose request died (a crash mid-delivery) is given up after this: the service's next
# retry processes the delivery. Far longer than the 5 seconds the service waits for an answer.
CLAIM_LEASE_SECONDS = 300
# A processed delivery is remembered for the service's whole retry schedule (99,360 s) and an hour.
KEEP_SECONDS = 102_960


class DeliveryStore:
    """The deliveries seen, in a SQLite file, keyed on the SHA-256 digest of the body.

    A delivery is claimed before it is processed, committed once it is, and released when
    processing fails, so that the service's retry is processed. Several processes may share the
    file: each call is one transaction.
    """

    def __init__(self, path, now=time.time):
        self.path = path
        self.now = now
        with closing(self._connect()) as db:
            db.execute(
                "CREATE TABLE IF NOT EXISTS deliveries (digest TEXT PRIMARY KEY, delivery_id TEXT NOT NULL,"
                " state TEXT NOT NULL, updated_at REAL NOT NULL)"
            )
            db.execute("CREATE INDEX IF NOT EXISTS deliveries_by_age ON deliveries (updated_at)")

    def _connect(self):
        # Autocommit, with the transactions written out: BEGIN IMMEDIATE takes the write lock first.
        return sqlite3.connect(self.path, timeout=5, isolation_level=None)

    def claim(self, digest, delivery_id):
        """'claimed' (process it), 'processed' (a duplicate) or 'in_progress' (another request has it)."""
        now = self.now()
        with closing(self._connect()) as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(
                    "DELETE FROM deliveries WHERE (state = 'processed' AND updated_at <= ?)"
                    " OR (state = 'processing' AND updated_at <= ?)",
                    (now - KEEP_SECONDS, now - CLAIM_LEASE_SECONDS),
                )
                row = db.execute("SELECT state FROM deliveries WHERE digest = ?", (digest,)).fetchone()
                if row is None:
                    db.execute("INSERT INTO deliveries VALUES (?, ?, 'processing', ?)", (digest, delivery_id, now))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        if row is None:
            return "claimed"
        return "processed" if row[0] == "processed" else "in_progress"

    def commit(self, digest):
        with closing(self._connect()) as db:
            db.execute("UPDATE deliveries SET state = 'processed', updated_at = ? WHERE digest = ?", (self.now(), digest))

    def release(self, digest):
        with closing(self._connect()) as db:
            db.execute("DELETE FROM deliveries WHERE digest = ? AND state = 'processing'", (digest,))


def signature_matches(secret, body, signature):
    """Whether `signature` is "sha256=" and the lowercase hex HMAC-SHA256 of `body`, keyed with the
    whole secret, "whsec_" included. Compared in constant time."""
    expected = "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature)


def answer(status, outcome, message):
    return status, {"message": message, "outcome": outcome}


def receive(body, headers, secret, store, handle):
    """Answers one delivery: `body` is the raw request body (bytes), `headers` the request's headers
    (looked up without regard to case, as every Python framework's headers are). Returns the status
    and the JSON body to send back."""
    if len(body) > MAX_BODY_BYTES:
        return answer(413, "body_too_large", f"The body is larger than {MAX_BODY_BYTES} bytes.")
    signature = headers.get("X-SVC-Signature")
    if signature is None:
        return answer(401, "missing_signature", "The request has no X-SVC-Signature header.")
    if not SIGNATURE.fullmatch(signature):
        return answer(401, "malformed_signature", 'X-SVC-Signature is not "sha256=" and 64 lowercase hex digits.')
    if not signature_matches(secret, body, signature):
        return answer(401, "signature_mismatch", "X-SVC-Signature does not match the body under the secret.")
    try:
        event = json.loads(body.decode("utf-8"))
    except ValueError:  # UnicodeDecodeError and json.JSONDecodeError alike
        return answer(400, "invalid_json", "The signed body is not UTF-8 JSON.")
    if not (
        isinstance(event, dict)
        and isinstance(event.get("event"), str)
        and isinstance(event.get("timestamp"), str)
        and isinstance(event.get("data"), dict)
    ):
        return answer(400, "invalid_json", 'The signed body is not an event: {"event", "timestamp", "data"}.')
    header_event = headers.get("X-SVC-Event")
    if header_event is not None and header_event != event["event"]:
        return answer(400, "event_mismatch", "X-SVC-Event is not the event of the signed body.")
    delivery_id = headers.get("X-SVC-Delivery")
    if not delivery_id:
        return answer(400, "missing_delivery_id", "The request has no X-SVC-Delivery header.")
    if event["event"] == "ping":
        return answer(200, "processed", "Pong.")
    if event["event"] not in RECEIPT_EVENTS:
        return answer(200, "ignored", f"No handler for {event['event']}; the delivery is acknowledged.")

    digest = hashlib.sha256(body).hexdigest()
    try:
        claim = store.claim(digest, delivery_id)
    except sqlite3.Error as error:
        print(f"delivery {delivery_id}: the store failed: {error}", file=sys.stderr, flush=True)
        return answer(500, "store_failed", "The receiver could not record the delivery; the sender will retry it.")
    if claim == "processed":
        return answer(200, "duplicate", "Delivery already processed.")
    if claim == "in_progress":
        return answer(409, "delivery_in_progress", "The delivery is being processed by another request; retry later.")
    try:
        handle(event, delivery_id)
    except Exception as error:  # noqa: BLE001 - any failure of your code: the service retries
        store.release(digest)
        print(f"delivery {delivery_id} ({event['event']}) failed: {error!r}", file=sys.stderr, flush=True)
        return answer(500, "handler_failed", "The receiver failed to process the delivery; the sender will retry it.")
    store.commit(digest)
    return answer(200, "processed", "Delivery processed.")


def handle_event(event, delivery_id):
    """Your code, for receipt.created, .updated, .disposed and .deleted. Deliveries come in any order:
    read the receipt's current state from the API (GET /receipts/{id}), or apply an event only when
    it is newer than the one you applied, and keep this short (the service waits 5 seconds)."""
    receipt = event["data"]
    print(
        f"{event['event']} receipt {receipt.get('id')} serial {receipt.get('serial_number')} (delivery {delivery_id})",
        flush=True,
    )


def make_request_handler(secret, store, path="/webhooks"):
    class WebhookRequestHandler(BaseHTTPRequestHandler):
        # A client that stops sending mid-request is dropped after this many seconds.
        timeout = 10

        def do_POST(self):
            if urlsplit(self.path).path != path:
                return self.send_json(*answer(404, "not_found", f"Deliveries are received at {path}."))
            length = self.headers.get("Content-Length", "")
            if not re.fullmatch(r"[0-9]{1,10}", length):
                return self.send_json(*answer(400, "unreadable_body", "The request has no Content-Length."))
            if int(length) > MAX_BODY_BYTES:
                self.close_connection = True
                if int(length) <= DISCARD_BYTES:
                    remaining = int(length)
                    while remaining > 0 and (chunk := self.rfile.read(min(remaining, 65536))):
                        remaining -= len(chunk)
                return self.send_json(*answer(413, "body_too_large", f"The body is larger than {MAX_BODY_BYTES} bytes."))
            body = self.rfile.read(int(length))
            if len(body) < int(length):
                return self.send_json(*answer(400, "unreadable_body", "The body ended before Content-Length."))
            self.send_json(*receive(body, self.headers, secret, store, handle_event))

        def refuse_method(self):
            self.send_json(*answer(405, "method_not_allowed", "Webhook deliveries are POST requests."), allow="POST")

        do_GET = do_PUT = do_PATCH = do_DELETE = refuse_method

        def send_json(self, status, payload, allow=None):
            data = json.dumps(payload).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            if allow is not None:
                self.send_header("Allow", allow)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format, *args):
            pass  # handle_event prints what matters

    return WebhookRequestHandler


def main():
    secret = os.environ.get("FFLKIT_WEBHOOK_SECRET", "")
    if not secret.startswith(SECRET_PREFIX) or secret == SECRET_PREFIX:
        sys.exit(
            "[@example/python-receiver] set FFLKIT_WEBHOOK_SECRET to the endpoint's signing secret as"
            " POST /webhooks answered it, whsec_... with its prefix (the prefix is part of the key)"
        )
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "3000"))
    store = DeliveryStore(os.environ.get("DELIVERY_DB", "deliveries.sqlite3"))
    server = ThreadingHTTPServer((host, port), make_request_handler(secret, store))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"Receiving Logbook webhooks at http://{host}:{server.server_address[1]}/webhooks", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
