"""The one gateway to the Kubernetes API: plain dicts in and out, explicit patch types.

Credentials come from the ``kubernetes`` client's loaders (kubeconfig or in-cluster); requests go
through one urllib3 pool. Errors become ``KubeError`` with the HTTP status; a 409 on create and a
404 on delete are answers, not errors (``create`` returns None, ``delete`` returns False).
"""

from __future__ import annotations

import json
import ssl
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlencode

import urllib3

from ..errors import TuinautError
from . import API_VERSION

MERGE_PATCH = "application/merge-patch+json"
_RETRY_STATUSES = {429, 500, 502, 503, 504}


class KubeError(TuinautError):
    def __init__(self, status: int, method: str, path: str, body: str) -> None:
        self.status = status
        try:
            self.message = json.loads(body).get("message", body)
        except ValueError:
            self.message = body
        super().__init__(f"{method} {path}: HTTP {status}: {self.message[:500]}")


@dataclass(frozen=True)
class Credentials:
    server: str
    ca_path: str | None = None
    cert_path: str | None = None
    key_path: str | None = None
    token: str | None = None
    insecure: bool = False

    @classmethod
    def load(cls, kubeconfig: str | None = None) -> Credentials:
        """From a kubeconfig (argument, $KUBECONFIG, ~/.kube/config) or, in a Pod, the service account."""
        from kubernetes import client, config  # the loaders only

        configuration = client.Configuration()
        try:
            config.load_kube_config(config_file=kubeconfig, client_configuration=configuration, persist_config=False)
        except config.ConfigException:
            if kubeconfig:
                raise
            config.load_incluster_config(client_configuration=configuration)
        token = (configuration.api_key or {}).get("authorization") or (configuration.api_key or {}).get("BearerToken")
        if token and token.lower().startswith("bearer "):
            token = token[7:]
        return cls(server=configuration.host.rstrip("/"), ca_path=configuration.ssl_ca_cert,
                   cert_path=configuration.cert_file, key_path=configuration.key_file, token=token,
                   insecure=not configuration.verify_ssl)


class Kube:
    """A small typed-by-path client: ``custom(...)``/``core(...)`` paths, dict bodies."""

    def __init__(self, credentials: Credentials, *, retries: int = 4, timeout_s: float = 30.0) -> None:
        self.credentials = credentials
        self.retries = retries
        kwargs: dict[str, Any] = {"maxsize": 8, "timeout": urllib3.Timeout(total=timeout_s),
                                  "retries": False}
        if credentials.server.startswith("https"):
            if credentials.insecure:
                kwargs["cert_reqs"] = ssl.CERT_NONE
            else:
                kwargs["cert_reqs"] = ssl.CERT_REQUIRED
                kwargs["ca_certs"] = credentials.ca_path
            if credentials.cert_path:
                kwargs["cert_file"], kwargs["key_file"] = credentials.cert_path, credentials.key_path
        self._http = urllib3.PoolManager(**kwargs)

    # -- transport ----------------------------------------------------------------------------------
    def request(self, method: str, path: str, body: Any = None, *, content_type: str = "application/json",
                query: dict[str, Any] | None = None, raw: bool = False) -> Any:
        url = self.credentials.server + path + (f"?{urlencode(query)}" if query else "")
        headers = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = content_type
        if self.credentials.token:
            headers["Authorization"] = f"Bearer {self.credentials.token}"
        data = json.dumps(body).encode() if body is not None else None
        delay = 0.2
        for attempt in range(self.retries + 1):
            try:
                response = self._http.request(method, url, body=data, headers=headers)
            except urllib3.exceptions.HTTPError as exc:
                if attempt == self.retries:
                    raise KubeError(0, method, path, str(exc)) from exc
            else:
                if response.status < 400:
                    if raw:
                        return response.data
                    return json.loads(response.data) if response.data else {}
                if response.status not in _RETRY_STATUSES or attempt == self.retries:
                    raise KubeError(response.status, method, path, response.data.decode(errors="replace"))
            time.sleep(delay)  # 5xx, 429 and dropped connections: the server may be restarting
            delay = min(delay * 2, 5.0)
        raise AssertionError("unreachable")

    # -- paths ---------------------------------------------------------------------------------------
    @staticmethod
    def custom(plural: str, namespace: str | None = None, name: str | None = None, sub: str | None = None) -> str:
        return _resource_path(f"/apis/{API_VERSION}", plural, namespace, name, sub)

    @staticmethod
    def core(plural: str, namespace: str | None = None, name: str | None = None, sub: str | None = None) -> str:
        return _resource_path("/api/v1", plural, namespace, name, sub)

    # -- verbs ---------------------------------------------------------------------------------------
    def get(self, path: str) -> dict[str, Any] | None:
        try:
            return self.request("GET", path)
        except KubeError as exc:
            if exc.status == 404:
                return None
            raise

    def list(self, path: str, selector: dict[str, str] | None = None) -> list[dict[str, Any]]:
        query = {"labelSelector": ",".join(f"{k}={v}" for k, v in selector.items())} if selector else None
        return list(self.request("GET", path, query=query).get("items") or [])

    def create(self, path: str, body: dict[str, Any]) -> dict[str, Any] | None:
        """The created object, or None when one of that name exists already (409)."""
        try:
            return self.request("POST", path, body)
        except KubeError as exc:
            if exc.status == 409:
                return None
            raise

    def patch(self, path: str, body: dict[str, Any]) -> dict[str, Any] | None:
        try:
            return self.request("PATCH", path, body, content_type=MERGE_PATCH)
        except KubeError as exc:
            if exc.status == 404:
                return None
            raise

    def delete(self, path: str) -> bool:
        try:
            self.request("DELETE", path, {"propagationPolicy": "Background"})
            return True
        except KubeError as exc:
            if exc.status == 404:
                return False
            raise

    def event(self, obj: dict[str, Any], reason: str, message: str, type_: str = "Normal") -> None:
        """Post a core/v1 Event about ``obj`` (best effort: an Event lost is not worth failing for)."""
        meta = obj.get("metadata", {})
        namespace = meta.get("namespace", "default")
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        body = {
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"generateName": f"{meta.get('name', 'tuinaut')}.", "namespace": namespace},
            "involvedObject": {"apiVersion": obj.get("apiVersion"), "kind": obj.get("kind"), "name": meta.get("name"),
                               "namespace": namespace, "uid": meta.get("uid")},
            "reason": reason, "message": message[:1000], "type": type_,
            "firstTimestamp": stamp, "lastTimestamp": stamp, "count": 1,
            "source": {"component": "tuinaut-operator"}, "reportingComponent": "tuinaut-operator",
        }
        try:
            self.request("POST", self.core("events", namespace), body)
        except KubeError:
            pass  # best effort, see above


def _resource_path(prefix: str, plural: str, namespace: str | None, name: str | None, sub: str | None) -> str:
    """``<prefix>[/namespaces/NS]/<plural>[/NAME][/SUB]``, names URL-quoted."""
    path = prefix
    if namespace:
        path += f"/namespaces/{quote(namespace)}"
    path += f"/{plural}"
    if name:
        path += f"/{quote(name)}"
    return path + (f"/{sub}" if sub else "")
