"""The report's figures (matplotlib, Agg backend: no display needed). Each returns the PNG path."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from .loading import KEY_CLASSES

CLASS_COLOURS = {"printable": "#4c72b0", "navigation": "#55a868", "deletion": "#c44e52", "control": "#8172b2"}


def _save(fig: plt.Figure, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def success_vs_cost(per_task: dict[str, dict[str, np.ndarray]], path: Path) -> Path:
    """One point per task and profile: operation cost (task median AKE) against success rate."""
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for profile, vals in per_task.items():
        ax.scatter(vals["operation"], vals["success"] * 100.0, label=profile, alpha=0.7, s=22)
    ax.set_xlabel("operation cost: task median AKE")
    ax.set_ylabel("task success rate (%)")
    ax.set_ylim(-5, 105)
    ax.set_title("Success vs operation cost per task")
    if per_task:
        ax.legend(fontsize=8)
    return _save(fig, path)


def key_class_bars(shares: dict[str, dict[str, float]], path: Path) -> Path:
    """Stacked shares of the four key classes per profile."""
    names = list(shares)
    fig, ax = plt.subplots(figsize=(6.5, 0.6 * max(len(names), 1) + 1.5))
    left = np.zeros(len(names))
    for cls in KEY_CLASSES:
        width = np.array([np.nan_to_num(shares[p][cls]) * 100.0 for p in names])
        ax.barh(names, width, left=left, color=CLASS_COLOURS[cls], label=cls)
        for y, (x0, w) in enumerate(zip(left, width)):
            if w >= 6:
                ax.text(x0 + w / 2, y, f"{w:.1f}", ha="center", va="center", color="white", fontsize=8)
        left += width
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of atomic key events (%)")
    ax.set_title("Key-class composition", pad=24)
    ax.legend(ncol=4, fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    return _save(fig, path)


def task_costs(task_ids: list[str], costs: dict[str, np.ndarray], path: Path, ylabel: str) -> Path:
    """Per-task median cost with its CI (rows: estimate, low, high) for each profile."""
    n = len(task_ids)
    fig, ax = plt.subplots(figsize=(min(max(6.5, 0.22 * n * max(len(costs), 1)), 40), 4.5))
    width = 0.8 / max(len(costs), 1)
    x = np.arange(n)
    for i, (profile, est) in enumerate(costs.items()):
        centre, low, high = est
        err = np.vstack([np.clip(centre - low, 0, None), np.clip(high - centre, 0, None)])
        err = np.nan_to_num(err)
        ax.errorbar(x + (i - (len(costs) - 1) / 2) * width, centre, yerr=err, fmt="o", ms=3, capsize=2,
                    label=profile)
    ax.set_xticks(x)
    ax.set_xticklabels(task_ids, rotation=90, fontsize=6 if n > 30 else 8)
    ax.set_ylabel(ylabel)
    ax.set_title("Per-task costs (median over runs/participants, 95% CI)")
    if costs:
        ax.legend(fontsize=8)
    return _save(fig, path)


def correlation_heatmap(matrices: dict[str, dict], path: Path) -> Path:
    """Spearman matrices among profiles, one panel per measure; undefined cells shown as n/a."""
    measures = list(matrices)
    fig, axes = plt.subplots(1, max(len(measures), 1), figsize=(4.2 * max(len(measures), 1), 4.0), squeeze=False)
    image = None
    for ax, m in zip(axes[0], measures):
        names = matrices[m]["profiles"]
        rho = np.asarray(matrices[m]["rho"], dtype=float)
        image = ax.imshow(np.ma.masked_invalid(rho), vmin=-1, vmax=1, cmap="RdBu_r")
        ax.set_facecolor("#dddddd")
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=45, ha="right", fontsize=7)
        ax.set_yticks(range(len(names)))
        ax.set_yticklabels(names if ax is axes[0][0] else [], fontsize=7)
        for i in range(len(names)):
            for j in range(len(names)):
                v = rho[i, j]
                ax.text(j, i, "n/a" if not np.isfinite(v) else f"{v:.2f}", ha="center", va="center", fontsize=7,
                        color="white" if np.isfinite(v) and abs(v) > 0.6 else "black")
        ax.set_title(m)
    if image is not None:
        fig.colorbar(image, ax=axes[0].tolist(), shrink=0.8, label="Spearman rho")
    fig.suptitle("Task-level rank correlations between profiles")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
