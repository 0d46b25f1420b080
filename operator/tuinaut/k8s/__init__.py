"""The Kubernetes executor: kopf operator, Pod builder, metrics.

Layers, lowest first: ``resources`` (pydantic models of the custom resources), ``crd`` (their
CustomResourceDefinitions), ``naming``/``pod``/``message``/``classify``/``status`` (pure functions
on dicts), ``api`` (the one gateway to the API server), ``controller`` (reconcilers), ``handlers``
(kopf wiring), ``inpod`` (what runs inside the Pod); ``metrics`` (Prometheus). Importing this package imports nothing heavy.
"""

GROUP = "tuinaut.dev"
VERSION = "v1alpha1"
API_VERSION = f"{GROUP}/{VERSION}"
EVALUATIONS = "evaluations"
ATTEMPTS = "attempts"

LABEL_EVALUATION = f"{GROUP}/evaluation"
LABEL_ATTEMPT = f"{GROUP}/attempt"
LABEL_APP = f"{GROUP}/app"
LABEL_TASK = f"{GROUP}/task"
LABEL_AGENT = f"{GROUP}/agent"
LABEL_TRY = f"{GROUP}/try"
