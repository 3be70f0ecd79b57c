"""https to an internal host: the organisation's CA file, refused certificates, a CONNECT tunnel through the proxy."""
from __future__ import annotations

import datetime
import ipaddress

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from engine.gateway import GatewayError
from tests.gateway import samples
from tests.gateway.llm_server import Answer, LLMServer, TunnelProxy
from tests.gateway.test_formats import gateway


@pytest.fixture(scope="module")
def certificate(tmp_path_factory) -> tuple[str, str]:
    """A self-signed certificate for 127.0.0.1, as an internal CA would issue: (cert file, key file)."""
    folder = tmp_path_factory.mktemp("tls")
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "noda test internal CA")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return str(cert_file), str(key_file)


def test_an_unknown_certificate_is_refused_without_retries(certificate):
    with LLMServer([Answer(json=samples.chat_json())], tls=certificate) as server:
        gw = gateway(server.base, stream=False)
        with pytest.raises(GatewayError) as info:
            gw.complete("q")
    assert info.value.code == "GATEWAY_TLS"
    assert gw.sleeps == []


def test_the_organisation_ca_file_makes_https_work(certificate):
    with LLMServer([Answer(sse=samples.chat_stream())], tls=certificate) as server:
        reply = gateway(server.base, ca_file=certificate[0]).complete("q")
    assert reply.text == samples.TEXT
    assert server.received[0].headers["authorization"].startswith("Bearer ")


def test_a_missing_ca_file_is_a_tls_error(tmp_path):
    gw = gateway("https://127.0.0.1:9/v1", ca_file=str(tmp_path / "missing.pem"))
    with pytest.raises(GatewayError) as info:
        gw.complete("q")
    assert info.value.code == "GATEWAY_TLS"


def test_https_goes_through_the_proxy_in_a_tunnel(certificate):
    proxy = TunnelProxy()
    try:
        with LLMServer([Answer(json=samples.chat_json())], tls=certificate) as server:
            reply = gateway(server.base, stream=False, ca_file=certificate[0], proxy=proxy.base).complete("q")
    finally:
        proxy.close()
    assert reply.text == samples.TEXT
    assert proxy.targets == [f"CONNECT 127.0.0.1:{server.port}"]
    assert len(server.received) == 1
