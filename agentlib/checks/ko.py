"""The Korean edition's words for every check: (exercise, English title) -> (Korean title,
Korean hint, or "" to keep the check's hint). `check()` uses them in a Korean notebook,
the grader with `--lang ko`; tests/test_i18n.py fails when a check has no entry here."""

CHECKS_KO: dict[tuple[str, str], tuple[str, str]] = {}
