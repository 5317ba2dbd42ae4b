"""Lesson 7 reads the saved benchmark through `bench.RESULTS`, from either edition's folder,
and on a hub where agentlib is installed apart from the course folder."""

from __future__ import annotations

import shutil
from pathlib import Path

from coursekit import bench

ROOT = Path(__file__).resolve().parent.parent


def test_the_saved_results_are_found_beside_the_package():
    assert bench.RESULTS == ROOT / "bench" / "results"
    assert (bench.RESULTS / "results.csv").is_file() and (bench.RESULTS / "results.md").is_file()


def test_on_a_hub_they_are_found_from_the_notebooks_folder(tmp_path, monkeypatch):
    course = tmp_path / "home" / "course"
    (course / "bench" / "results").mkdir(parents=True)
    shutil.copy(ROOT / "bench" / "results" / "results.csv", course / "bench" / "results")
    (course / "lessons" / "ko").mkdir(parents=True)
    site = tmp_path / "site-packages" / "agentlib"  # installed apart, no bench/ beside it
    site.mkdir(parents=True)
    monkeypatch.setattr(bench, "__file__", str(site / "bench.py"))
    for folder in (course / "lessons", course / "lessons" / "ko"):
        monkeypatch.chdir(folder)
        assert bench._results() == course / "bench" / "results"
