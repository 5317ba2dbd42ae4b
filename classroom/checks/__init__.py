"""The course's exercise checks: one module per lesson (lesson01.py, lesson02.py, ...).

Importing this package imports every module in it, so a new lesson's checks register
themselves with `classroom.grading.register` without anyone editing this file.
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
