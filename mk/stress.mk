# `make evidence-stress-protocol`: the stress section's scoring protocol on Stress-Predict
# at full size (docs/methods.md, Stress scoring protocol): import, `resonance beats` (so the
# pulse wave's reliable beats fill where IBI.csv has none, rr_combined.csv), `resonance validate`,
# then scripts/evidence/stress_protocol.py writes the measured tables evidence/measured/stress_protocol.md
# evidence/measured/stress_design.md (the design's time-only controls) and
# evidence/measured/stress_beat_inputs.md (the product engines on the pulse wave's beats; all three
# included by docs/methods/validation.md) and the figure docs/figures/stress_protocol_roc.png.
# Every Stress-Predict subject is development data (mk/heldout.json, verdict
# stress_tuning); the nested leave-one-subject-out folds are the held-out estimate.
# Skipped, with the reason, without the dataset. Runs in `make evidence`, not in `make test`.
STRESS_PROTOCOL_WORK := build/stress-protocol
STRESS_PROTOCOL_FIGURE := docs/figures/stress_protocol_roc.png

.PHONY: evidence-stress-protocol
evidence-stress-protocol: build venv
	@sp="$(RESONANCE_DATASETS)/stress-predict"; \
	if [ ! -d "$$sp" ]; then echo "evidence-stress-protocol: no $$sp (set RESONANCE_DATASETS), skipped" >&2; exit 0; fi; \
	rm -rf $(STRESS_PROTOCOL_WORK) && mkdir -p $(STRESS_PROTOCOL_WORK) $(MEASURED) && \
	$(BIN) import "$$sp" --quiet --out $(STRESS_PROTOCOL_WORK)/ws && \
	$(BIN) beats $(STRESS_PROTOCOL_WORK)/ws --quiet && \
	$(BIN) validate $(STRESS_PROTOCOL_WORK)/ws --quiet --report-dir $(STRESS_PROTOCOL_WORK)/report && \
	$(PY) scripts/evidence/stress_protocol.py $(STRESS_PROTOCOL_WORK)/report/validation.json \
	  --table $(MEASURED)/stress_protocol.md --design-table $(MEASURED)/stress_design.md \
	  --beat-inputs-table $(MEASURED)/stress_beat_inputs.md --figure $(STRESS_PROTOCOL_FIGURE) --command "make evidence-stress-protocol"

