"""Channels to a collide server: plaintext or TLS (mutual TLS with a client
certificate), the service config every collide caller should use, and the
admin bearer token.

The service config resends read-only calls (every CollisionService call and
the LevelService reads) that fail with UNAVAILABLE (the server went away
before answering) or CANCELLED (a draining server cancelled them), up to 5
attempts after a random backoff of up to 0.1, 0.2, 0.4, 0.8 s, and lets
them wait for a connection up to their deadline while no server is
reachable. Writes (PutLevel, PatchLevel, DeleteLevel) are left out: a write
whose answer was lost may have happened. gRPC does not retry a stream once
an answer has arrived on it; QueryStream resends a stream's unanswered
batches itself.
"""

import dataclasses
import json
import pathlib
from typing import List, Optional, Tuple

import grpc

SERVICE_CONFIG = json.dumps({"methodConfig": [{
    "name": [{"service": "collide.v1.CollisionService"},
             {"service": "collide.v1.LevelService", "method": "ListLevels"},
             {"service": "collide.v1.LevelService", "method": "DescribeLevel"},
             {"service": "collide.v1.LevelService", "method": "GetLevel"}],
    "waitForReady": True,
    "retryPolicy": {
        "maxAttempts": 5,
        "initialBackoff": "0.1s",
        "maxBackoff": "1s",
        "backoffMultiplier": 2,
        "retryableStatusCodes": ["UNAVAILABLE", "CANCELLED"],
    },
}]})


@dataclasses.dataclass(frozen=True)
class Tls:
    """TLS settings; each file is PEM. ca_file: the CAs that sign the
    server's certificate (None: the system's roots). cert_file and key_file
    together: a client certificate for mutual TLS. server_name: the name the
    server's certificate carries when it does not name the address."""
    ca_file: Optional[str] = None
    cert_file: Optional[str] = None
    key_file: Optional[str] = None
    server_name: Optional[str] = None

    def credentials(self) -> grpc.ChannelCredentials:
        if bool(self.cert_file) != bool(self.key_file):
            raise ValueError("Tls: cert_file and key_file go together")
        return grpc.ssl_channel_credentials(
            root_certificates=_read(self.ca_file),
            private_key=_read(self.key_file),
            certificate_chain=_read(self.cert_file))


def _read(path: Optional[str]) -> Optional[bytes]:
    return pathlib.Path(path).read_bytes() if path else None


def channel_options(tls: Optional[Tls]) -> List[Tuple[str, object]]:
    options: List[Tuple[str, object]] = [
        ("grpc.service_config", SERVICE_CONFIG), ("grpc.enable_retries", 1)]
    if tls is not None and tls.server_name:
        options.append(("grpc.ssl_target_name_override", tls.server_name))
    return options


def open_channel(address: str, tls: Optional[Tls] = None) -> grpc.Channel:
    """A channel to host:port with SERVICE_CONFIG; TLS when `tls` is given."""
    options = channel_options(tls)
    if tls is None:
        return grpc.insecure_channel(address, options=options)
    return grpc.secure_channel(address, tls.credentials(), options=options)


def open_aio_channel(address: str, tls: Optional[Tls] = None):
    """open_channel for asyncio (grpc.aio)."""
    options = channel_options(tls)
    if tls is None:
        return grpc.aio.insecure_channel(address, options=options)
    return grpc.aio.secure_channel(address, tls.credentials(), options=options)


def token_metadata(token: Optional[str] = None,
                   token_file: Optional[str] = None) -> Tuple[Tuple[str, str], ...]:
    """The admin call metadata: ("authorization", "Bearer TOKEN") from the
    token or the first line of token_file; empty with neither."""
    if token is None and token_file:
        token = pathlib.Path(token_file).read_text().strip()
    if not token:
        return ()
    return (("authorization", f"Bearer {token}"),)
