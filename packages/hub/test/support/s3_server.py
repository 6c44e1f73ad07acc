"""A real S3-protocol server for the hub's tests: moto's server mode on 127.0.0.1 (a free port), with
IAM authentication on, so every request's access key and Signature V4 are checked as AWS does.

Two documented S3 behaviours moto 5.2 lacks are added here: presigned URLs (query-string Signature V4,
"Authenticating Requests: Using Query Parameters"; moto's authentication reads the Authorization
header only) are checked for signature, access key and expiry; and GetObject's `response-*` query
parameters override the answer's headers ("Overriding response header values").

Prints one JSON line (endpoint, port, the access key made for the tests, the bucket, moto's version)
once the bucket exists, then serves until its standard input closes (the test process ended or
called stop), so it never outlives the tests.
"""

import calendar
import hashlib
import hmac
import json
import logging
import os
import sys
import time
from urllib.parse import parse_qsl, quote, urlsplit, urlunsplit

BUCKET = sys.argv[1] if len(sys.argv) > 1 else "modelhub-test"

# Requests before authentication starts: creating the user, its access key and its policy. moto reads
# this setting when it is imported.
os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "3"

import boto3  # noqa: E402  (moto's own dependency)
from moto import __version__ as moto_version  # noqa: E402
from moto.core.authorization import ActionAuthenticatorMixin  # noqa: E402
from moto.s3.exceptions import (  # noqa: E402
    S3AccessDeniedError,
    S3InvalidAccessKeyIdError,
    S3SignatureDoesNotMatchError,
)
from moto.s3.responses import S3Response  # noqa: E402
from moto.server import ThreadedMotoServer  # noqa: E402

# The access keys presigned URLs may use: the one made below.
SECRETS: dict[str, str] = {}


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode("utf-8"), hashlib.sha256).digest()


def check_presigned(method: str, url: str, headers) -> None:
    parts = urlsplit(url)
    params = parse_qsl(parts.query, keep_blank_values=True)
    query = dict(params)
    credential = query.get("X-Amz-Credential", "").split("/")
    if len(credential) != 5 or credential[0] not in SECRETS:
        raise S3InvalidAccessKeyIdError()
    access_key, day, region, service, _ = credential
    amz_date = query.get("X-Amz-Date", "")
    signed_at = calendar.timegm(time.strptime(amz_date, "%Y%m%dT%H%M%SZ"))
    if time.time() > signed_at + int(query.get("X-Amz-Expires", "0")):
        raise S3AccessDeniedError()
    canonical_query = "&".join(
        f"{quote(k, safe='-_.~')}={quote(v, safe='-_.~')}"
        for k, v in sorted(params)
        if k != "X-Amz-Signature"
    )
    signed = query.get("X-Amz-SignedHeaders", "").split(";")
    canonical_headers = "".join(f"{name}:{(headers.get(name) or '').strip()}\n" for name in signed)
    canonical_request = "\n".join(
        [method, parts.path or "/", canonical_query, canonical_headers, ";".join(signed), "UNSIGNED-PAYLOAD"]
    )
    scope = f"{day}/{region}/{service}/aws4_request"
    string_to_sign = "\n".join(
        ["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical_request.encode("utf-8")).hexdigest()]
    )
    key = ("AWS4" + SECRETS[access_key]).encode("utf-8")
    for step in (day, region, service, "aws4_request"):
        key = _hmac(key, step)
    expected = hmac.new(key, string_to_sign.encode("utf-8"), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, query.get("X-Amz-Signature", "")):
        raise S3SignatureDoesNotMatchError()


_authenticate = ActionAuthenticatorMixin._authenticate_and_authorize_action


def authenticate(self, iam_request_cls, resource="*"):
    if "Authorization" not in self.headers and "X-Amz-Signature=" in self.uri:
        check_presigned(self.method, self.uri, self.headers)
        return None
    # moto hands botocore the query as the web server decoded it, and botocore signs a query as given
    # (already encoded), so a '/' in a query value (a ListObjectsV2 or ListMultipartUploads prefix,
    # signed as %2F by every client) never matched. Encoded again for the check only ('/' separates
    # nothing in a query).
    uri = self.uri
    parts = urlsplit(uri)
    self.uri = urlunsplit(parts._replace(query=parts.query.replace("/", "%2F")))
    try:
        return _authenticate(self, iam_request_cls, resource)
    finally:
        self.uri = uri


ActionAuthenticatorMixin._authenticate_and_authorize_action = authenticate

RESPONSE_OVERRIDES = {
    "response-cache-control": "Cache-Control",
    "response-content-disposition": "Content-Disposition",
    "response-content-encoding": "Content-Encoding",
    "response-content-language": "Content-Language",
    "response-content-type": "Content-Type",
    "response-expires": "Expires",
}
_key_response_get = S3Response._key_response_get


def key_response_get(self, query, key_name):
    status, headers, body = _key_response_get(self, query, key_name)
    if status in (200, 206):
        for param, header in RESPONSE_OVERRIDES.items():
            values = query.get(param)
            if values:
                headers[header] = values[0] if isinstance(values, list) else values
    return status, headers, body


S3Response._key_response_get = key_response_get

# One line per request on stderr would only fill the pipe.
logging.getLogger("werkzeug").setLevel(logging.ERROR)

server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
_, port = server.get_host_and_port()
endpoint = f"http://127.0.0.1:{port}"

# The setup requests are the unauthenticated ones; their placeholder keys are never accepted later.
iam = boto3.client(
    "iam",
    endpoint_url=endpoint,
    region_name="us-east-1",
    aws_access_key_id="setup",
    aws_secret_access_key="setup",
)
iam.create_user(UserName="modelhub")
key = iam.create_access_key(UserName="modelhub")["AccessKey"]
SECRETS[key["AccessKeyId"]] = key["SecretAccessKey"]
iam.put_user_policy(
    UserName="modelhub",
    PolicyName="modelhub-s3",
    PolicyDocument=json.dumps(
        {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}
    ),
)
s3 = boto3.client(
    "s3",
    endpoint_url=endpoint,
    region_name="us-east-1",
    aws_access_key_id=key["AccessKeyId"],
    aws_secret_access_key=key["SecretAccessKey"],
)
s3.create_bucket(Bucket=BUCKET)

print(
    json.dumps(
        {
            "endpoint": endpoint,
            "port": port,
            "accessKeyId": key["AccessKeyId"],
            "secretAccessKey": key["SecretAccessKey"],
            "bucket": BUCKET,
            "motoVersion": moto_version,
        }
    ),
    flush=True,
)
sys.stdin.read()
server.stop()
