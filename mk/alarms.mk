# ---- alarms ----------------------------------------------------------------
# `make alarms`: the daily engines' alarms against planted health events at full size
# (docs/methods.md, Alarm rates). Persona workspaces with `--events planned` over
# ALARMS_DAYS days for the training seeds (ALARMS_TRAIN_SEEDS) and the seeds validated on
# (ALARMS_TEST_SEEDS). Both default to the alarms' training seeds of mk/heldout.json
# (development seeds), so `make alarms` validates in sample; `make evaluate VERDICT=alarms` runs it with the
# evaluation seeds as ALARMS_TEST_SEEDS (docs/methods.md, Held-out protocol). The trend
# engine is tuned on the training workspaces for each regression method (`resonance
# tune --engine trend`, personas as the unit; when the tuned constants do not beat the
# defaults nothing is written and the defaults are kept), then every held-out workspace
# is validated with the default and the tuned constants, and reports/alarms/alarms.md
# pools them per signal and method with 95 % intervals from a crossed bootstrap over
# persona profiles and seeds, and names the method recommended on those seeds
# (scripts/evidence/alarm_table.py).
#
# `make evidence-alarms` runs `make alarms` on the development seeds and writes its table
# as evidence/measured/alarms.md, the block docs/validation.md includes.
ALARMS_DAYS ?= 90
ALARMS_TRAIN_SEEDS ?= $(call HELDOUT_SEEDS,alarms,training)
ALARMS_TEST_SEEDS ?= $(ALARMS_TRAIN_SEEDS)
ALARMS_BUDGET ?= 150
ALARMS_WORK ?= build/work/alarms
ALARMS_REPORTS ?= reports/alarms
# Where the pooled table goes (the evaluation writes it under evidence/, committed).
ALARMS_TABLE ?= $(ALARMS_REPORTS)/alarms.md

.PHONY: alarms
alarms: build
	@set -e; mkdir -p $(ALARMS_WORK) $(ALARMS_REPORTS); \
	for s in $(ALARMS_TRAIN_SEEDS) $(ALARMS_TEST_SEEDS); do \
	  ws=$(ALARMS_WORK)/seed-$$s; \
	  [ $$ws/truth.csv -nt $(BIN) ] || $(BIN) personas generate --quiet --out $$ws --days $(ALARMS_DAYS) --seed $$s --events planned; \
	done; \
	$(BIN) constants show > $(ALARMS_WORK)/defaults.json; \
	train=""; for s in $(ALARMS_TRAIN_SEEDS); do train="$$train $(ALARMS_WORK)/seed-$$s"; done; \
	args=""; \
	for m in 0 1 2 3; do \
	  python3 -c "import json,sys; c=json.load(open(sys.argv[1])); c['engines']['trend']['constants']['regression_method']['value']=int(sys.argv[2]); json.dump(c, open(sys.argv[3], 'w'))" \
	    $(ALARMS_WORK)/defaults.json $$m $(ALARMS_WORK)/method-$$m.json; \
	  mkdir -p $(ALARMS_REPORTS)/method-$$m; rm -f $(ALARMS_REPORTS)/method-$$m/trend.json; \
	  rc=0; $(BIN) tune $$train --engine trend --constants $(ALARMS_WORK)/method-$$m.json --cv kfold:5 \
	    --budget $(ALARMS_BUDGET) --out $(ALARMS_REPORTS)/method-$$m/trend.json --report-dir $(ALARMS_REPORTS)/method-$$m || rc=$$?; \
	  [ $$rc -eq 0 ] || [ $$rc -eq 3 ] || exit $$rc; \
	done; \
	for c in default tuned-0 tuned-1 tuned-2 tuned-3; do \
	  dirs=""; \
	  for s in $(ALARMS_TEST_SEEDS); do \
	    out=$(ALARMS_REPORTS)/$$c/seed-$$s; mkdir -p $$out; \
	    case $$c in \
	      default) $(BIN) validate --quiet --no-verify $(ALARMS_WORK)/seed-$$s --report-dir $$out ;; \
	      tuned-*) m=$${c#tuned-}; f=$(ALARMS_REPORTS)/method-$$m/trend.json; [ -f $$f ] || continue; \
	        $(BIN) validate --quiet --no-verify --constants $$f $(ALARMS_WORK)/seed-$$s --report-dir $$out ;; \
	    esac; \
	    dirs="$$dirs,$$out"; \
	  done; \
	  [ -z "$$dirs" ] || args="$$args $$c=$${dirs#,}"; \
	done; \
	mkdir -p $(dir $(ALARMS_TABLE)); python3 scripts/evidence/alarm_table.py $$args > $(ALARMS_TABLE).tmp; mv $(ALARMS_TABLE).tmp $(ALARMS_TABLE); \
	echo "alarms: wrote $(ALARMS_TABLE)" >&2

.PHONY: evidence-alarms
# ALARMS_EVIDENCE_SEEDS (default: the training seeds, development seeds) is set by
# `make evidence-check`'s small run only.
ALARMS_EVIDENCE_SEEDS ?= $(call HELDOUT_SEEDS,alarms,training)
ALARMS_EVIDENCE_WORK ?= build/work/alarms
evidence-alarms:
	@$(MAKE) --no-print-directory alarms ALARMS_TRAIN_SEEDS="$(ALARMS_EVIDENCE_SEEDS)" \
	  ALARMS_TEST_SEEDS="$(ALARMS_EVIDENCE_SEEDS)" ALARMS_WORK=$(ALARMS_EVIDENCE_WORK) ALARMS_REPORTS=$(ALARMS_EVIDENCE_WORK)/reports \
	  ALARMS_TABLE=$(ALARMS_EVIDENCE_WORK)/reports/alarms.md ALARMS_DAYS=$(ALARMS_DAYS) ALARMS_BUDGET=$(ALARMS_BUDGET)
	@mkdir -p $(MEASURED); \
	{ echo "Measured by \`make evidence-alarms\` (\`make alarms\`: tuned and validated on the development seeds" \
	    "$(ALARMS_EVIDENCE_SEEDS), ten persona profiles × $(ALARMS_DAYS) days, budget $(ALARMS_BUDGET))."; \
	  echo; cat $(ALARMS_EVIDENCE_WORK)/reports/alarms.md; } > $(MEASURED)/alarms.md.tmp && mv $(MEASURED)/alarms.md.tmp $(MEASURED)/alarms.md
