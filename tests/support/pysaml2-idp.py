"""A SAML 2.0 identity provider built on pysaml2 (Debian's python3-pysaml2), with
its default settings but one: nobody on this project wrote its protocol code,
so the suite meets a provider as a company would bring one. The one setting is
the signature algorithm, whose default in this version is RSA-SHA1, which
Namecard refuses (docs/admin/single-sign-on.md asks for SHA-256 or stronger); the refusal itself
has a test.

Run: python3 pysaml2-idp.py FOLDER PORT. FOLDER holds sp.xml (the service
provider's metadata), key.pem and cert.pem. The provider listens on 127.0.0.1:PORT:

  GET  /metadata          its metadata, for the service provider
  POST /person            who signs in next: {"userid": …, "identity": {attribute: [values]}}
  GET  /sso/redirect      the HTTP-Redirect binding's sign-in: answers with the
                          auto-posting form of the HTTP-POST binding

It prints "listening" once ready.
"""

import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from saml2 import BINDING_HTTP_REDIRECT
from saml2.config import IdPConfig
from saml2.metadata import entity_descriptor
from saml2.server import Server

folder, port = sys.argv[1], int(sys.argv[2])
base = f"http://127.0.0.1:{port}"

config = IdPConfig()
config.load(
    {
        "entityid": f"{base}/metadata",
        "service": {
            "idp": {
                "endpoints": {"single_sign_on_service": [(f"{base}/sso/redirect", BINDING_HTTP_REDIRECT)]},
                **(
                    {}
                    if os.environ.get("PYSAML2_DEFAULT_ALGORITHMS")
                    else {
                        "signing_algorithm": "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
                        "digest_algorithm": "http://www.w3.org/2001/04/xmlenc#sha256",
                    }
                ),
            }
        },
        "key_file": os.path.join(folder, "key.pem"),
        "cert_file": os.path.join(folder, "cert.pem"),
        "metadata": {"local": [os.path.join(folder, "sp.xml")]},
        "xmlsec_binary": "/usr/bin/xmlsec1",
    }
)
idp = Server(config=config)
person = {"userid": "nobody", "identity": {}}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="text/html; charset=utf-8"):
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        global person
        if self.path != "/person":
            return self.answer(404, "not found")
        person = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.answer(204, "")

    def do_GET(self):
        url = urlparse(self.path)
        if url.path == "/metadata":
            return self.answer(200, str(entity_descriptor(config)), "application/samlmetadata+xml")
        if url.path != "/sso/redirect":
            return self.answer(404, "not found")
        query = parse_qs(url.query)
        try:
            request = idp.parse_authn_request(query["SAMLRequest"][0], BINDING_HTTP_REDIRECT)
            arguments = idp.response_args(request.message)
            response = idp.create_authn_response(
                person["identity"],
                userid=person["userid"],
                authn={
                    "class_ref": "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport",
                    "authn_auth": base,
                },
                sign_assertion=True,
                **arguments,
            )
            relay_state = query.get("RelayState", [""])[0]
            http = idp.apply_binding(
                arguments["binding"], str(response), arguments["destination"], relay_state, response=True
            )
        except Exception as error:  # the test reads why
            return self.answer(500, f"{type(error).__name__}: {error}", "text/plain; charset=utf-8")
        self.answer(200, http["data"])


server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
print("listening", flush=True)
server.serve_forever()
