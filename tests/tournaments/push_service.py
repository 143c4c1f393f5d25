"""A push service on loopback for the Web Push tests: a small HTTP server that plays the browser
vendor's service and the browser at once.

It hands out subscriptions as a browser would (a fresh P-256 key pair and a 16-byte auth secret per
subscription, an endpoint on this server), and for every message POSTed to an endpoint it

- checks the VAPID authorization (RFC 8292): the ES256 signature of the JWT against the key in
  ``k``, the audience (this server's origin), the expiry (in the future, at most 24 hours ahead) and
  the subject; and ``k`` must be the key the subscription was made for;
- DECRYPTS the body with the subscription's private key and auth secret (RFC 8291 key derivation,
  RFC 8188 aes128gcm records), written here from the RFCs with ``cryptography``'s primitives, apart
  from the libraries the site sends with, so that a wrong encryption or signature cannot pass;
- answers with the status set for that endpoint (201 by default; 410 "gone", 404, 500 ...).

Whatever fails a check is answered 400 and recorded in ``rejected``; what passes is in ``received``.
"""

from __future__ import annotations

import base64
import json
import os
import struct
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64d(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=salt, info=info).derive(ikm)


def decrypt(body: bytes, private_key: ec.EllipticCurvePrivateKey, auth_secret: bytes) -> bytes:
    """RFC 8291 section 3.4 and RFC 8188 section 2, for the user agent's side."""
    salt, record_size, id_length = body[:16], struct.unpack("!L", body[16:20])[0], body[20]
    sender_public = body[21 : 21 + id_length]
    records = body[21 + id_length :]
    if id_length != 65 or record_size < 18:
        raise ValueError("the header must carry the sender's uncompressed P-256 key")
    sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_public)
    receiver_public = private_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    shared = private_key.exchange(ec.ECDH(), sender)
    ikm = _hkdf(auth_secret, shared, b"WebPush: info\x00" + receiver_public + sender_public, 32)
    key = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
    plain = b""
    chunks = [records[i : i + record_size] for i in range(0, len(records), record_size)]
    for seq, chunk in enumerate(chunks):
        iv = (int.from_bytes(nonce, "big") ^ seq).to_bytes(12, "big")
        data = AESGCM(key).decrypt(iv, chunk, None).rstrip(b"\x00")
        last = seq == len(chunks) - 1
        if not data or data[-1] != (2 if last else 1):
            raise ValueError("bad padding delimiter")
        plain += data[:-1]
    return plain


def verify_vapid(header: str, audience: str, now: float | None = None) -> tuple[dict, str]:
    """(claims, public key) of a valid ``vapid t=..., k=...`` header; ValueError otherwise."""
    scheme, _, rest = header.partition(" ")
    if scheme.lower() != "vapid":
        raise ValueError(f"scheme {scheme!r}, not vapid")
    params = dict(part.strip().split("=", 1) for part in rest.split(","))
    token, public = params["t"], params["k"]
    head, claims, signature = token.split(".")
    if json.loads(b64d(head)) != {"typ": "JWT", "alg": "ES256"}:
        raise ValueError("not an ES256 JWT")
    raw = b64d(signature)
    if len(raw) != 64:
        raise ValueError("an ES256 signature is 64 bytes")
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64d(public))
    try:
        key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("the JWT's signature does not verify") from None
    body = json.loads(b64d(claims))
    now = time.time() if now is None else now
    if body.get("aud") != audience:
        raise ValueError(f"audience {body.get('aud')!r}, not {audience!r}")
    if not now < body.get("exp", 0) <= now + 24 * 3600:
        raise ValueError("expiry not within the next 24 hours")
    if not str(body.get("sub", "")).startswith(("mailto:", "https:")):
        raise ValueError("no subject")
    return body, public


@dataclass
class Subscription:
    """What a browser would hand the page: endpoint and keys, and (kept by the 'browser') the
    private key and secret that open its messages."""

    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth_secret: bytes
    server_key: str  # the applicationServerKey it was made for

    @property
    def p256dh(self) -> str:
        return b64e(self.private_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))

    @property
    def auth(self) -> str:
        return b64e(self.auth_secret)

    def as_json(self) -> dict:
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": self.auth},
        }


@dataclass
class Message:
    endpoint: str
    headers: dict
    claims: dict
    payload: dict


@dataclass
class PushService:
    host: str = "127.0.0.1"
    port: int = 0  # 0: a free one
    subscriptions: dict[str, Subscription] = field(default_factory=dict)
    status: dict[str, int] = field(default_factory=dict)  # by endpoint path; 201 when not set
    received: list[Message] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.server.server_address[1]}"

    def subscribe(self, server_key: str) -> Subscription:
        path = f"/push/{b64e(os.urandom(12))}"
        sub = Subscription(
            self.origin + path, ec.generate_private_key(ec.SECP256R1()), os.urandom(16), server_key
        )
        self.subscriptions[path] = sub
        return sub

    def wait_for(self, count: int, timeout: float = 60.0) -> list[Message]:
        deadline = time.monotonic() + timeout
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return list(self.received)

    def handle(self, path: str, headers: dict, body: bytes) -> int:
        sub = self.subscriptions.get(path)
        if sub is None:
            return 404
        status = self.status.get(path, 201)
        if status != 201:
            return status
        try:
            if headers.get("content-encoding") != "aes128gcm":
                raise ValueError(f"content coding {headers.get('content-encoding')!r}")
            if not headers.get("ttl", "").isdigit():
                raise ValueError("no TTL")
            claims, public = verify_vapid(headers.get("authorization", ""), self.origin)
            if public.rstrip("=") != sub.server_key.rstrip("="):
                raise ValueError("signed with a key other than the subscription's")
            payload = json.loads(decrypt(body, sub.private_key, sub.auth_secret))
        except (ValueError, KeyError, InvalidTag, TypeError) as exc:
            self.rejected.append(f"{type(exc).__name__}: {exc}")
            return 400
        self.received.append(Message(sub.endpoint, headers, claims, payload))
        return 201

    def start(self) -> PushService:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                headers = {k.lower(): v for k, v in self.headers.items()}
                self.send_response(service.handle(self.path, headers, body))
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer((self.host, self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
