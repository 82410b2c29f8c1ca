"""A small outside world for the egress tests, all on this machine: a Docker network the test
creates, with a package index serving a wheel built here, a documentation site (HTTP and HTTPS)
that is allow-listed, and a site that is not. Everything is removed afterwards."""

from __future__ import annotations

import base64
import datetime
import hashlib
import uuid
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import docker
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

SERVER = """
import http.server, os, ssl, sys, threading
os.chdir(sys.argv[1])
handler = http.server.SimpleHTTPRequestHandler
plain = http.server.ThreadingHTTPServer(("0.0.0.0", 80), handler)
if os.path.exists("/certs/cert.pem"):
    secure = http.server.ThreadingHTTPServer(("0.0.0.0", 443), handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain("/certs/cert.pem", "/certs/key.pem")
    secure.socket = context.wrap_socket(secure.socket, server_side=True)
    threading.Thread(target=secure.serve_forever, daemon=True).start()
plain.serve_forever()
"""

WHEEL_NAME = "mai_hello-1.0-py3-none-any.whl"


@dataclass
class World:
    network: str
    hosts: dict[str, str] = field(default_factory=dict)  # name -> IP address
    wheel_sha256: str = ""
    containers: list = field(default_factory=list)
    index_ca: Path | None = None  # the throwaway CA whose certificate the index serves on 443


def build_wheel(directory: Path) -> Path:
    """A tiny pure-Python wheel, written by hand (a wheel is a zip with its metadata)."""
    files = {
        "mai_hello.py": b'GREETING = "hello from the local index"\n',
        "mai_hello-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: mai-hello\nVersion: 1.0\n",
        "mai_hello-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: mai-safety-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append("mai_hello-1.0.dist-info/RECORD,,")
    path = directory / WHEEL_NAME
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        archive.writestr("mai_hello-1.0.dist-info/RECORD", "\n".join(record) + "\n")
    return path


def self_signed(directory: Path, name: str) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .sign(key, hashes.SHA256())
    )
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "cert.pem").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    (directory / "key.pem").write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    for path in directory.iterdir():
        path.chmod(0o644)
    directory.chmod(0o755)


def index_ca(directory: Path, name: str) -> Path:
    """A throwaway CA and a certificate for ``name`` signed by it, as a TLS-inspecting proxy would
    present: the CA's certificate (public, ca.pem) is what the host's pip would be configured with."""
    now = datetime.datetime.now(datetime.timezone.utc)
    authority_key = ec.generate_private_key(ec.SECP256R1())
    authority = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "mai-safety test inspecting proxy CA")])
    authority_certificate = (
        x509.CertificateBuilder()
        .subject_name(authority)
        .issuer_name(authority)
        .public_key(authority_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .sign(authority_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    certificate = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
        .issuer_name(authority)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(authority_key, hashes.SHA256())
    )
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "cert.pem").write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    (directory / "key.pem").write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    (directory.parent / "index-ca.pem").write_bytes(authority_certificate.public_bytes(serialization.Encoding.PEM))
    return directory.parent / "index-ca.pem"


def start_world(client: docker.DockerClient, root: Path, image: str) -> World:
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o755)
    (root / "serve.py").write_text(SERVER)
    index = root / "index"
    (index / "simple" / "mai-hello").mkdir(parents=True)
    (index / "packages").mkdir()
    wheel = build_wheel(index / "packages")
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    (index / "simple" / "index.html").write_text('<a href="mai-hello/">mai-hello</a>\n')
    (index / "simple" / "mai-hello" / "index.html").write_text(
        f'<a href="../../packages/{WHEEL_NAME}#sha256={digest}">{WHEEL_NAME}</a>\n'
    )
    docs = root / "docs"
    docs.mkdir()
    (docs / "index.html").write_text("the documentation page\n")
    (docs / "big.bin").write_bytes(b"x" * (3 * 1024 * 1024))
    evil = root / "evil"
    evil.mkdir()
    (evil / "index.html").write_text("you should not see this\n")
    self_signed(root / "certs-docs", "docs.mai-test")
    ca = index_ca(root / "certs-index", "index.mai-test")
    for path in root.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)

    name = f"mai-test-outside-{uuid.uuid4().hex[:8]}"
    world = World(network=name, wheel_sha256=digest, index_ca=ca)
    client.networks.create(name, driver="bridge", labels={"mai-safety.test": "1"})
    sites = {"index.mai-test": (index, root / "certs-index"), "docs.mai-test": (docs, root / "certs-docs"), "evil.mai-test": (evil, None)}
    for host, (content, certs) in sites.items():
        volumes = {str(root / "serve.py"): {"bind": "/serve.py", "mode": "ro"}, str(content): {"bind": "/site", "mode": "ro"}}
        if certs is not None:
            volumes[str(certs)] = {"bind": "/certs", "mode": "ro"}
        container = client.containers.create(
            image,
            ["python3", "/serve.py", "/site"],
            user="0:0",
            volumes=volumes,
            labels={"mai-safety.test": "1"},
            detach=True,
        )
        world.containers.append(container)
        client.networks.get(name).connect(container, aliases=[host])
        client.networks.get("bridge").disconnect(container)
        container.start()
        container.reload()
        world.hosts[host] = container.attrs["NetworkSettings"]["Networks"][name]["IPAddress"]
    return world


def stop_world(client: docker.DockerClient, world: World) -> None:
    for container in world.containers:
        try:
            container.remove(force=True)
        except docker.errors.NotFound:
            pass
    try:
        client.networks.get(world.network).remove()
    except docker.errors.NotFound:
        pass
