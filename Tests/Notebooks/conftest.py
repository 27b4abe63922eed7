"""Reports each notebook test as a `Test Case '…' passed|failed` line, the form the CI
script counts for the Swift tests, besides pytest's own summary."""


def pytest_runtest_logreport(report):
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        outcome = "passed" if report.outcome in ("passed", "skipped") else "failed"
        name = report.nodeid.split("::", 1)[-1]
        print(f"\nTest Case 'Notebooks.{name}' {outcome}", flush=True)
