# ---- measured tables of the docs ---------------------------------------------
# The targets that write the measured tables of docs/tuning.md, docs/personas.md,
# docs/engines/toolkit.md, docs/engines/heart-coach.md and docs/methods.md (Coherence):
# each `evidence-a-b` writes evidence/measured/a_b.md through a script of
# scripts/evidence/measured_*.py (standard library only), which reads what the `resonance`
# binary writes; mk/evidence.tsv says how `make evidence-check` checks each. Work files go
# under EVIDENCE_WORK.
EVIDENCE_WORK ?= build/evidence
# The ten personas × 30 days of `make personas` (seed 0), with their sessions: made afresh
# once per make run; the measurements that change a workspace work on copies.
EVIDENCE_PERSONAS = $(EVIDENCE_WORK)/personas
# docs/personas.md: the response laws' bounds over the robustness study's development
# seeds, and the planted health events over the alarms' development seeds.
LAW_BOUNDS_SEEDS ?= $(call HELDOUT_SEEDS,effect_robustness,development,--csv)
HEALTH_EVENT_SEEDS ?= $(call HELDOUT_SEEDS,alarms,training,--csv)
HEALTH_EVENT_DAYS ?= 90
# docs/methods.md, Coherence: white noise (seeds of Python's random.Random), the healthy
# PhysioNet records (outside the repository: $RESONANCE_DATASETS), the pacer's
# simulation on its development seeds.
WHITE_NOISE_SEEDS ?= 0,1,2,3,4
WHITE_NOISE_SECONDS ?= 1200
COHERENCE_RECORDS ?= $(RESONANCE_DATASETS)/physionet-rr/healthy
COHERENCE_SIM_SEEDS ?= $(call HELDOUT_SEEDS,pacer,training,--csv)


.PHONY: evidence-personas-workspace evidence-tune-song-effect evidence-zero-delta-impact evidence-coach-personas \
  evidence-personas-daily-means evidence-response-law-bounds evidence-health-event-counts \
  evidence-coherence-white-noise evidence-coherence-sampling-simulated evidence-coherence-sampling-physionet
evidence-personas-workspace: build
	@rm -rf $(EVIDENCE_PERSONAS)
	$(BIN) personas generate --quiet --out $(EVIDENCE_PERSONAS) --days $(PERSONAS_DAYS) --seed $(PERSONAS_SEED)
	$(BIN) sessions --quiet $(EVIDENCE_PERSONAS)

# docs/tuning.md: `make tune-song-effect` on a copy of the personas, and the same search
# with 5 folds over listeners.
evidence-tune-song-effect: evidence-personas-workspace
	@rm -rf $(EVIDENCE_WORK)/tune && mkdir -p $(EVIDENCE_WORK)/tune && cp -r $(EVIDENCE_PERSONAS) $(EVIDENCE_WORK)/tune/ws
	$(MAKE) --no-print-directory tune-song-effect TUNE_PERSONAS_WS=$(EVIDENCE_WORK)/tune/ws TUNE_REPORTS=$(EVIDENCE_WORK)/tune/reports
	$(BIN) tune $(EVIDENCE_WORK)/tune/ws --quiet --engine song_effect --budget $(TUNE_BUDGET) --seed $(TUNE_SEED) \
	  --cv kfold:5 --force --out $(EVIDENCE_WORK)/tune/kfold/song_effect.json --report-dir $(EVIDENCE_WORK)/tune/kfold
	python3 scripts/evidence/measured_tuning.py --bin $(BIN) --reports $(EVIDENCE_WORK)/tune/reports/personas \
	  --kfold $(EVIDENCE_WORK)/tune/kfold/song_effect.json --out $(MEASURED)/tune_song_effect.md \
	  --caption 'The ten personas × $(PERSONAS_DAYS) days, seed $(PERSONAS_SEED), after `resonance sessions`: `make tune-song-effect` (`resonance tune --engine song_effect --budget $(TUNE_BUDGET) --seed $(TUNE_SEED)`, leave one listener out) and the same search with `--cv kfold:5`; `make evidence-tune-song-effect` writes these tables.'

# docs/engines/toolkit.md, Impact: the variant zero_is_measured on the personas and on
# the sample export.
evidence-zero-delta-impact: evidence-personas-workspace
	@rm -rf $(EVIDENCE_WORK)/zero-delta && mkdir -p $(EVIDENCE_WORK)/zero-delta
	$(BIN) import datasets/sample --quiet --out $(EVIDENCE_WORK)/zero-delta/sample-import
	$(BIN) sessions --quiet $(EVIDENCE_WORK)/zero-delta/sample-import
	python3 scripts/evidence/measured_zero_delta.py --bin $(BIN) --work $(EVIDENCE_WORK)/zero-delta \
	  --workspace 'ten personas × $(PERSONAS_DAYS) days=$(EVIDENCE_PERSONAS)' \
	  --workspace 'sample export=$(EVIDENCE_WORK)/zero-delta/sample-import' --out $(MEASURED)/zero_delta_impact.md \
	  --caption 'The ten personas × $(PERSONAS_DAYS) days (seed $(PERSONAS_SEED)) and the sample export (`datasets/sample`), after `resonance sessions`, `resonance effects --model ema` with the defaults and with `impact.zero_delta_is_missing` 0; `make evidence-zero-delta-impact` writes these tables.'

# docs/engines/heart-coach.md, Coaching rules.
evidence-coach-personas: evidence-personas-workspace
	python3 scripts/evidence/measured_coach.py --bin $(BIN) --personas $(EVIDENCE_PERSONAS) --work $(EVIDENCE_WORK)/coach \
	  --out $(MEASURED)/coach_personas.md \
	  --caption 'The ten personas × $(PERSONAS_DAYS) days, seed $(PERSONAS_SEED), `resonance daily` on the generated workspace, with the defaults and with `trend.regression_method` 3 (the EWMA chart); `make evidence-coach-personas` writes these tables.'

# docs/personas.md.
evidence-personas-daily-means: evidence-personas-workspace
	python3 scripts/evidence/measured_personas.py daily-means --personas $(EVIDENCE_PERSONAS) --out $(MEASURED)/personas_daily_means.md \
	  --caption 'Means over each persona'\''s days of `daily.csv`, the ten personas × $(PERSONAS_DAYS) days, seed $(PERSONAS_SEED); `make evidence-personas-daily-means` writes this table.'

evidence-response-law-bounds: build
	python3 scripts/evidence/measured_personas.py law-bounds --bin $(BIN) --work $(EVIDENCE_WORK)/law-bounds --seeds $(LAW_BOUNDS_SEEDS) \
	  --out $(MEASURED)/response_law_bounds.md \
	  --caption 'Listeners whose realised onset sits at the floor, or threshold at the cap, per development seed of the robustness study, {seeds} (mk/heldout.json), from `truth.csv` (a listener'\''s law parameters do not depend on the days); `make evidence-response-law-bounds` writes this table.'

evidence-health-event-counts: build
	python3 scripts/evidence/measured_personas.py health-events --bin $(BIN) --work $(EVIDENCE_WORK)/health-events \
	  --seeds $(HEALTH_EVENT_SEEDS) --days $(HEALTH_EVENT_DAYS) --out $(MEASURED)/health_event_counts.md \
	  --caption 'Planted by `resonance personas generate --events planned`, the ten personas × $(HEALTH_EVENT_DAYS) days, seeds {seeds} (the training seeds of the alarms, development seeds in mk/heldout.json); `make evidence-health-event-counts` writes this table.'

# docs/methods.md, Coherence.
evidence-coherence-white-noise: build
	python3 scripts/evidence/measured_coherence.py white-noise --bin $(BIN) --work $(EVIDENCE_WORK)/white-noise \
	  --seeds $(WHITE_NOISE_SEEDS) --seconds $(WHITE_NOISE_SECONDS) --out $(MEASURED)/coherence_white_noise.md \
	  --caption 'White-noise heart rate, N(70, 1) bpm every 0.25 s for $(WHITE_NOISE_SECONDS) s per record (one record per seed {seeds} of Python'\''s `random.Random`), `resonance coherence --breathing-rate 5.5`; `make evidence-coherence-white-noise` writes this table.'

# Without the records (no $RESONANCE_DATASETS) the committed table stays as it is.
evidence-coherence-sampling-physionet: build
	@if [ ! -e "$(COHERENCE_RECORDS)" ]; then echo "evidence-coherence-sampling-physionet: skipped ($(COHERENCE_RECORDS) not found)"; exit 0; fi; \
	set -x; python3 scripts/evidence/measured_coherence.py sampling --bin $(BIN) --work $(EVIDENCE_WORK)/coherence-sampling \
	  --out $(MEASURED)/coherence_sampling_physionet.md \
	  --caption 'The R-R files below, read in place (outside the repository: `physionet-rr/healthy` of the public datasets under `$$RESONANCE_DATASETS`; never committed), `resonance coherence --method product` with `--hr-sampling spline` and `repeat`; `make evidence-coherence-sampling-physionet` writes this table.' \
	  $(COHERENCE_RECORDS)

evidence-coherence-sampling-simulated: build
	python3 scripts/evidence/measured_coherence.py simulated --bin $(BIN) --work $(EVIDENCE_WORK)/coherence-simulated \
	  --seeds $(COHERENCE_SIM_SEEDS) --out $(MEASURED)/coherence_sampling_simulated.md \
	  --caption '`resonance breathing simulate` on seeds {seeds} (the pacer'\''s development seeds, mk/heldout.json): the ten personas × three strategies per seed; `make evidence-coherence-sampling-simulated` writes this table.'
