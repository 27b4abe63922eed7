"""Every notebook of notebooks-export/ executed on the synthetic sample workspace and a
7-day persona workspace, as `make notebooks` runs them: no cell may fail, every expected
figure must exist as a valid 150 dpi PNG of the size its figure was drawn at and must not
be blank (or, where it cannot be drawn, a one-sentence note must stand in its place), and
the exported notebooks must be valid nbformat that jupytext reads the same way from the
sources.

RESONANCE_BIN names the resonance executable (default .build/release/resonance)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("RESONANCE_BIN", str(ROOT / ".build/release/resonance"))
WORK = ROOT / "build/notebooks-test"

SAMPLE_FIGURES = {"beats_qc", "hrv_subject", "hrv_tachograms", "hrv_psd", "hrv_poincare", "stress_protocol_hr", "stress_auc",
                  "stress_roc", "stress_scores", "coherence"}
PERSONA_VALIDATION_FIGURES = {"song_effects_forest", "effects_vs_truth", "listener_sensitivity", "dj_rank_of_played"}
PERSONAS = ["CardiacRehab", "CollegeStudent", "MeditationPractitioner", "NewMom", "NightShiftNurse",
            "RemoteDeveloper", "SeniorFit", "StressedExecutive", "WeekendWarrior", "YoungAthlete"]


def resonance(*args):
    subprocess.run([BIN, *args, "--quiet"], check=True, cwd=ROOT)


def run_notebooks(workspace, report, *kinds):
    cmd = [sys.executable, str(ROOT / "scripts/lib/notebooks.py"), "--bin", BIN, "--workspace", str(workspace),
           "--report-dir", str(report)]
    for kind in kinds:
        cmd += ["--kind", kind]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "SOURCE_DATE_EPOCH": "0"})
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stdout


@pytest.fixture(scope="module")
def sample():
    ws, report = WORK / "sample", WORK / "reports/sample"
    resonance("import", str(ROOT / "datasets/sample"), "--out", str(ws))
    resonance("hrv", str(ws), "--nn-out", str(ws / "hrv_nn.csv"), "--psd-out", str(ws / "hrv_psd.csv"))
    for stage in ["beats", "coherence", "sessions", "effects"]:
        resonance(stage, str(ws))
    resonance("validate", str(ws), "--report-dir", str(report))
    run_notebooks(ws, report, "validation", "tuning")
    return ws, report


@pytest.fixture(scope="module")
def personas():
    ws, report = WORK / "personas", WORK / "reports/personas"
    resonance("personas", "generate", "--out", str(ws), "--days", "7", "--seed", "0")
    for stage in ["sessions", "effects"]:
        resonance(stage, str(ws))
    resonance("dj", "replay", str(ws))
    resonance("personas", "report", str(ws), "--report-dir", str(report))
    resonance("validate", str(ws), "--report-dir", str(report))
    run_notebooks(ws, report, "validation", "persona")
    return ws, report


@pytest.fixture(scope="module")
def dj_simulation():
    ws, report = WORK / "dj", WORK / "reports/dj"
    resonance("dj", "simulate", "--out", str(ws), "--seeds", "2", "--replicas", "1", "--days", "4")
    resonance("validate", str(ws), "--report-dir", str(report))
    run_notebooks(ws, report, "validation")
    return ws, report


def listed(report):
    return json.loads((report / "figures/figures.json").read_text())


def figure_list(report):
    """The figures drawn, by name."""
    return {f["name"]: f for f in listed(report) if "note" not in f}


def notes(report):
    """The notes standing in for figures that could not be drawn, by figure name."""
    return {f["name"]: f["note"] for f in listed(report) if "note" in f}


def check_png(report, figure):
    """A valid PNG, 150 dpi, of the size the figure was drawn at (≥ 600 px wide), not blank."""
    path = report / "figures" / f"{figure['name']}.png"
    with Image.open(path) as image:
        image.verify()
    with Image.open(path) as image:
        assert image.format == "PNG"
        assert image.size == (figure["width_px"], figure["height_px"])
        assert 600 <= image.size[0] <= 4000 and 300 <= image.size[1] <= 6000
        dpi = image.info.get("dpi")
        assert dpi is not None and abs(dpi[0] - 150) < 0.5, dpi
        pixels = np.asarray(image.convert("L"), dtype=float)
    # A blank or single-colour canvas has no variance; a drawn figure has lines, text and fills.
    assert pixels.var() > 100, f"{path}: pixel variance {pixels.var():.1f}"
    assert (pixels < 128).mean() > 0.01, f"{path}: almost no dark pixels"
    assert (report / "figures" / f"{figure['name']}.svg").stat().st_size > 1000


def test_sample_figures(sample):
    _, report = sample
    figures = figure_list(report)
    assert SAMPLE_FIGURES <= set(figures), SAMPLE_FIGURES - set(figures)
    for figure in figures.values():
        check_png(report, figure)


def test_persona_figures(personas):
    _, report = personas
    figures = figure_list(report)
    expected = PERSONA_VALIDATION_FIGURES | {f"persona_{p}" for p in PERSONAS}
    assert expected <= set(figures), expected - set(figures)
    for figure in figures.values():
        check_png(report, figure)


def test_beats_qc_figure_where_beats_were_detected_and_a_note_where_no_waveforms(sample, personas):
    """The sample's pulse wave gives the beats QC figure; the persona workspace, which
    holds no raw waveforms, gets the sentence saying so in the figure's place, in the
    notebook's output and in validation.md."""
    assert "beats_qc" in figure_list(sample[1]) and "beats_qc" not in notes(sample[1])
    _, report = personas
    sentence = notes(report).get("beats_qc")
    assert sentence and sentence.startswith("No beats QC figure: this workspace holds no raw waveforms")
    assert not (report / "figures/beats_qc.png").exists()
    assert f"\n{sentence}\n" in (report / "validation.md").read_text()
    nb = nbformat.read(report / "notebooks/validation.ipynb", as_version=4)
    printed = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert sentence in printed


def test_dj_simulation_figures(dj_simulation):
    ws, report = dj_simulation
    figures = figure_list(report)
    assert "dj_regret_vs_days" in figures, set(figures)
    check_png(report, figures["dj_regret_vs_days"])
    assert "## AI DJ" in (report / "validation.md").read_text()


def test_executed_notebooks_have_no_errors(sample, personas):
    for report, kinds in [(sample[1], ["validation", "tuning"]), (personas[1], ["validation", "persona"])]:
        for kind in kinds:
            nb = nbformat.read(report / "notebooks" / f"{kind}.ipynb", as_version=4)
            nbformat.validate(nb)
            errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
            assert not errors
            assert all(c.execution_count for c in nb.cells if c.cell_type == "code")
            html = (report / "notebooks" / f"{kind}.html").read_text()
            assert html.count("data:image/png;base64") >= (1 if kind != "tuning" else 0)


def test_reports_embed_their_figures(sample, personas):
    text = (sample[1] / "validation.md").read_text()
    for name in SAMPLE_FIGURES:
        assert f"](figures/{name}.png)" in text
    for p in PERSONAS:
        persona = (personas[1] / f"{p}.md").read_text()
        assert f"](figures/persona_{p}.png)" in persona
        assert f"](figures/persona_{p}.png)" in (personas[1] / "index.md").read_text()
    # A rerun replaces the figure section rather than appending a second one.
    assert text.count("<!-- figures: begin -->") == 1


def test_exported_notebook_is_valid_and_bound(sample, tmp_path):
    ws, report = sample
    resonance("export-notebook", str(ws), "--out", str(tmp_path), "--kind", "validation", "--report-dir", str(report))
    nb = nbformat.read(tmp_path / "validation.ipynb", as_version=4)
    nbformat.validate(nb)
    injected = [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert len(injected) == 1
    assert f'WORKSPACE = "{ws}"' in injected[0].source and f'REPORT_DIR = "{report}"' in injected[0].source
    first = (tmp_path / "validation.ipynb").read_bytes()
    resonance("export-notebook", str(ws), "--out", str(tmp_path), "--kind", "validation", "--report-dir", str(report))
    assert (tmp_path / "validation.ipynb").read_bytes() == first


@pytest.mark.parametrize("kind", ["validation", "persona", "tuning", "common"])
def test_cells_match_jupytext(kind, sample, tmp_path):
    """Our percent-format reader agrees with jupytext's on every source."""
    import jupytext
    ours = nbformat.read(sample[1] / "notebooks" / "validation.ipynb", as_version=4) if kind == "common" else None
    if kind != "common":
        resonance("export-notebook", str(sample[0]), "--out", str(tmp_path), "--kind", kind)
        ours = nbformat.read(tmp_path / f"{kind}.ipynb", as_version=4)
    theirs = jupytext.read(ROOT / "notebooks-export" / f"{kind}.py", fmt="py:percent")
    exported = [(c.cell_type, c.source) for c in ours.cells if "injected-parameters" not in c.metadata.get("tags", [])]
    expected = [(c.cell_type, c.source) for c in theirs.cells]
    if kind == "common":
        assert all(cell in exported for cell in expected)
    else:
        common = [(c.cell_type, c.source) for c in jupytext.read(ROOT / "notebooks-export/common.py", fmt="py:percent").cells]
        assert [cell for cell in exported if cell not in common] == expected


def test_export_notebook_errors_name_the_problem(tmp_path):
    done = subprocess.run([BIN, "export-notebook", str(tmp_path / "nowhere"), "--out", str(tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode != 0 and "nowhere: no such workspace folder" in done.stderr
    (tmp_path / "ws").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "src/common.py").write_text("# %%\nx = 1\n")
    (tmp_path / "src/validation.py").write_text("print('before any cell')\n# %%\n")
    done = subprocess.run([BIN, "export-notebook", str(tmp_path / "ws"), "--out", str(tmp_path), "--sources",
                           str(tmp_path / "src")], capture_output=True, text=True)
    assert done.returncode == 1
    assert f"{tmp_path}/src/validation.py:1:1: text before the first '# %%' cell marker" in done.stderr


def test_rerun_gives_identical_files(sample):
    """Executing the validation notebook again rewrites every figure, the executed
    notebook and its HTML byte for byte."""
    _, report = sample
    files = sorted(p for p in report.rglob("*") if p.is_file() and p.parent.name in ("figures", "notebooks"))
    before = {p: p.read_bytes() for p in files}
    run_notebooks(sample[0], report, "validation", "tuning")
    changed = [str(p.relative_to(report)) for p in files if p.read_bytes() != before[p]]
    assert not changed
    assert len([p for p in files if p.suffix == ".png"]) >= len(SAMPLE_FIGURES)


def test_tuning_figures(sample):
    """The tuning notebook on a report folder laid out as `make tune` writes it: the tuned
    constants with their `tuning` folds, and the default and tuned validations."""
    ws, sample_report = sample
    report = WORK / "reports/tuning/sample"
    for name in ("default", "tuned"):
        (report / name).mkdir(parents=True, exist_ok=True)
        (report / name / "validation.json").write_text((sample_report / "validation.json").read_text())
    folds = [{"fold": i + 1, "held_out": [f"S{i + 1:02d}"], "train_subjects": [],
              "default_held_out": 0.60 + 0.01 * i, "tuned_held_out": 0.66 + 0.01 * i,
              "default_train": 0.61, "tuned_train": 0.70} for i in range(5)]
    tuning = {"engine": "stress", "objective": "auc", "cv": "loso", "folds": folds, "beats_defaults": True,
              "held_out": {"default_mean": 0.62, "default_ci": [0.60, 0.64], "tuned_mean": 0.68, "tuned_ci": [0.66, 0.70]}}
    (report / "stress.json").write_text(json.dumps({"engines": {}, "tuning": tuning}))
    (report / "tuning.md").write_text("# Tuning\n")
    run_notebooks(ws, report, "tuning")
    figures = figure_list(report)
    assert {"tuning_folds_stress", "tuning_stress_auc"} <= set(figures)
    for figure in figures.values():
        check_png(report, figure)
    assert "](figures/tuning_folds_stress.png)" in (report / "tuning.md").read_text()
