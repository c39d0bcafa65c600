"""Tests of receiver.py: python3 -m unittest (from this folder). No network: receive() and the
store are called directly, with a clock of the test's own."""

import hashlib
import hmac
import json
import os
import tempfile
import unittest

from receiver import CLAIM_LEASE_SECONDS, KEEP_SECONDS, MAX_BODY_BYTES, DeliveryStore, receive, signature_matches

SECRET = "whsec_py7hon0Rece1ver0000000000000000000"


class Headers(dict):
    """Headers looked up without regard to case, as every Python framework's are."""

    def get(self, name, default=None):
        for key, value in self.items():
            if key.lower() == name.lower():
                return value
        return default


def sign(body, secret=SECRET):
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def delivery(event="receipt.created", delivery_id="9b2f0c1e-0000-4000-8000-000000000001", receipt_id=42, secret=SECRET):
    body = json.dumps(
        {"event": event, "timestamp": "2025-03-14T15:00:00.000Z", "data": {"id": receipt_id, "serial_number": "PY123"}}
    ).encode()
    headers = Headers({"X-SVC-Signature": sign(body, secret), "X-SVC-Event": event, "X-SVC-Delivery": delivery_id})
    return body, headers


class ReceiveTest(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.clock = [1_741_964_400.0]
        self.store = DeliveryStore(os.path.join(folder.name, "deliveries.sqlite3"), now=lambda: self.clock[0])
        self.handled = []

    def handle(self, event, delivery_id):
        self.handled.append((event["event"], delivery_id))

    def receive(self, body, headers, handle=None):
        return receive(body, headers, SECRET, self.store, handle or self.handle)

    def test_a_signed_delivery_is_processed_once(self):
        status, payload = self.receive(*delivery())
        self.assertEqual((status, payload["outcome"]), (200, "processed"))
        self.assertEqual(self.handled, [("receipt.created", "9b2f0c1e-0000-4000-8000-000000000001")])

    def test_a_retry_is_a_duplicate(self):
        self.receive(*delivery())
        status, payload = self.receive(*delivery())
        self.assertEqual((status, payload["outcome"]), (200, "duplicate"))
        self.assertEqual(len(self.handled), 1)

    def test_a_replay_under_a_new_delivery_id_is_a_duplicate(self):
        body, headers = delivery()
        self.receive(body, headers)
        headers["X-SVC-Delivery"] = "9b2f0c1e-0000-4000-8000-00000000ffff"
        status, payload = self.receive(body, headers)
        self.assertEqual((status, payload["outcome"]), (200, "duplicate"))
        self.assertEqual(len(self.handled), 1)

    def test_two_events_are_both_processed(self):
        self.receive(*delivery(receipt_id=1))
        self.receive(*delivery(receipt_id=2))
        self.assertEqual(len(self.handled), 2)

    def test_signatures_are_refused_with_401(self):
        body, headers = delivery()
        cases = {
            "missing_signature": Headers({k: v for k, v in headers.items() if k != "X-SVC-Signature"}),
            "malformed_signature": Headers({**headers, "X-SVC-Signature": "sha256=" + "é" * 64}),
            "signature_mismatch": Headers({**headers, "X-SVC-Signature": sign(body, "whsec_another0000000000000000000000000000")}),
        }
        for outcome, forged in cases.items():
            with self.subTest(outcome):
                status, payload = self.receive(body, forged)
                self.assertEqual((status, payload["outcome"]), (401, outcome))
        self.assertEqual(self.handled, [])

    def test_the_prefix_is_part_of_the_key(self):
        body = b'{"event":"ping"}'
        self.assertTrue(signature_matches(SECRET, body, sign(body)))
        self.assertFalse(signature_matches(SECRET, body, sign(body, SECRET[len("whsec_"):])))

    def test_a_changed_body_does_not_match(self):
        body, headers = delivery()
        status, payload = self.receive(body.replace(b"PY123", b"PY124"), headers)
        self.assertEqual((status, payload["outcome"]), (401, "signature_mismatch"))

    def test_malformed_deliveries_are_refused_with_400(self):
        not_json = b"not json"
        not_event = b'{"event": "receipt.created"}'
        body, headers = delivery()
        cases = [
            ("invalid_json", not_json, Headers({**headers, "X-SVC-Signature": sign(not_json)})),
            ("invalid_json", b"\xff\xfe", Headers({**headers, "X-SVC-Signature": sign(b"\xff\xfe")})),
            ("invalid_json", not_event, Headers({**headers, "X-SVC-Signature": sign(not_event)})),
            ("event_mismatch", body, Headers({**headers, "X-SVC-Event": "receipt.deleted"})),
            ("missing_delivery_id", body, Headers({k: v for k, v in headers.items() if k != "X-SVC-Delivery"})),
        ]
        for outcome, payload_body, payload_headers in cases:
            with self.subTest(outcome):
                status, payload = self.receive(payload_body, payload_headers)
                self.assertEqual((status, payload["outcome"]), (400, outcome))
        self.assertEqual(self.handled, [])

    def test_a_body_over_1_mib_is_refused_with_413(self):
        body = b" " * (MAX_BODY_BYTES + 1)
        status, payload = self.receive(body, Headers({"X-SVC-Signature": sign(body)}))
        self.assertEqual((status, payload["outcome"]), (413, "body_too_large"))

    def test_ping_is_answered_without_the_handler(self):
        status, payload = self.receive(*delivery(event="ping"))
        self.assertEqual((status, payload["outcome"]), (200, "processed"))
        self.assertEqual(self.handled, [])

    def test_an_unknown_event_is_acknowledged(self):
        status, payload = self.receive(*delivery(event="receipt.archived"))
        self.assertEqual((status, payload["outcome"]), (200, "ignored"))

    def test_a_failed_handler_answers_500_and_its_retry_is_processed(self):
        def fail(event, delivery_id):
            raise RuntimeError("database down")

        status, payload = self.receive(*delivery(), handle=fail)
        self.assertEqual((status, payload["outcome"]), (500, "handler_failed"))
        self.assertNotIn("database down", payload["message"])
        status, payload = self.receive(*delivery())
        self.assertEqual((status, payload["outcome"]), (200, "processed"))

    def test_a_delivery_being_processed_answers_409(self):
        body, headers = delivery()
        self.assertEqual(self.store.claim(hashlib.sha256(body).hexdigest(), "other"), "claimed")
        status, payload = self.receive(body, headers)
        self.assertEqual((status, payload["outcome"]), (409, "delivery_in_progress"))


class DeliveryStoreTest(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.clock = [1_741_964_400.0]
        self.store = DeliveryStore(os.path.join(folder.name, "deliveries.sqlite3"), now=lambda: self.clock[0])

    def test_a_claim_held_past_its_lease_is_given_up(self):
        self.assertEqual(self.store.claim("a" * 64, "1"), "claimed")
        self.clock[0] += CLAIM_LEASE_SECONDS - 1
        self.assertEqual(self.store.claim("a" * 64, "1"), "in_progress")
        self.clock[0] += 1
        self.assertEqual(self.store.claim("a" * 64, "1"), "claimed")

    def test_a_processed_delivery_is_remembered_for_the_retry_schedule(self):
        self.store.claim("b" * 64, "2")
        self.store.commit("b" * 64)
        self.clock[0] += KEEP_SECONDS - 1
        self.assertEqual(self.store.claim("b" * 64, "2"), "processed")
        self.clock[0] += 1
        self.assertEqual(self.store.claim("b" * 64, "2"), "claimed")

    def test_release_drops_only_a_claim_in_progress(self):
        self.store.claim("c" * 64, "3")
        self.store.commit("c" * 64)
        self.store.release("c" * 64)
        self.assertEqual(self.store.claim("c" * 64, "3"), "processed")


if __name__ == "__main__":
    unittest.main()
