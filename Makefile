# Convenience targets. The test suite and CI use scripts/test.sh and .ci/run.
PYTHON ?= .venv/bin/python

.PHONY: bench bench-quick

# every benchmark, then benchmarks/RESULTS.md and the charts (benchmarks/README section in README.md)
bench:
	$(PYTHON) benchmarks/run_all.py

# smoke mode of every script, into /tmp (the committed results stay as they are)
bench-quick:
	$(PYTHON) benchmarks/run_all.py --quick --results /tmp/hedera-bench/results --output /tmp/hedera-bench/RESULTS.md
