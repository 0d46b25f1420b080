"""Put a benchmark's apps on this machine: Debian packages by apt, PyPI apps in venvs of their own.

A PyPI app lives in ``/opt/tuinaut/apps/<app>`` (a venv made with Debian's /usr/bin/python3, so
the interpreter it links to is inside the sandbox's read-only /usr). Its app.yaml launches it from
there and lists that directory in ``sandbox.readOnlyPaths``.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .errors import InfraError
from .model import App

PIP_APPS_ROOT = Path("/opt/tuinaut/apps")
SYSTEM_PYTHON = "/usr/bin/python3"


@dataclass(frozen=True)
class InstallPlan:
    apt: list[str]
    pip: dict[str, list[str]]  # app name -> requirements

    def commands(self) -> list[list[str]]:
        steps: list[list[str]] = []
        if self.apt:
            steps.append(["apt-get", "install", "-y", "-q", "--no-install-recommends", *self.apt])
        for app, requirements in sorted(self.pip.items()):
            venv = PIP_APPS_ROOT / app
            steps.append([SYSTEM_PYTHON, "-m", "venv", str(venv)])
            steps.append([str(venv / "bin" / "pip"), "install", "-q", *requirements])
        return steps


def plan_install(apps: list[App]) -> InstallPlan:
    apt = sorted({package for app in apps for package in app.install.apt})
    if any(app.install.pip for app in apps):
        apt = sorted(set(apt) | {"python3-venv"})
    return InstallPlan(apt=apt, pip={app.name: list(app.install.pip) for app in apps if app.install.pip})


def apply_install(plan: InstallPlan, echo=print) -> None:  # type: ignore[no-untyped-def]
    for command in plan.commands():
        echo("+ " + " ".join(command))
        if shutil.which(command[0]) is None and not Path(command[0]).exists():
            raise InfraError("install_failed", f"{command[0]} not found")
        done = subprocess.run(command, check=False)
        if done.returncode != 0:
            raise InfraError("install_failed", f"{' '.join(command[:4])} ... exited {done.returncode}")


def installed_versions(packages: list[str]) -> dict[str, str | None]:
    """Installed Debian package versions (None for packages not installed)."""
    versions: dict[str, str | None] = {}
    for package in packages:
        done = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
        versions[package] = done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None
    return versions


def requirement_name(requirement: str) -> str:
    """The distribution name of a requirement string: 'posting==2.11.1' -> 'posting'."""
    name = requirement.strip()
    for separator in ("[", "=", "<", ">", "!", "~", ";", " "):
        name = name.split(separator, 1)[0]
    return name


def installed_pip_version(app: str, distribution: str) -> str | None:
    """The version of ``distribution`` in the app's venv under PIP_APPS_ROOT (None when absent)."""
    from importlib.metadata import distributions

    venv = PIP_APPS_ROOT / app
    wanted = distribution.lower().replace("_", "-")
    for site in sorted(venv.glob("lib/python*/site-packages")):
        for dist in distributions(path=[str(site)]):
            if (dist.metadata["Name"] or "").lower().replace("_", "-") == wanted:
                return dist.version
    return None
