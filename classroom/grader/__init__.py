"""Grading a class: each notebook runs in its own sandbox, the checks run outside it.

- wire.py       plain data across the process boundary (values, functions, errors)
- channel.py    JSON lines over a pair of pipes, with deadlines and a size limit
- runner.py     inside the sandbox: run the notebook's cells, then answer calls
- sandbox.py    start the runner isolated (namespaces where allowed, limits, cleanup)
- remote.py     the grader's side: the learner's functions as callables that cross over
- worker.py     grade one notebook in a clean process and print its results as JSON
- kernel_grading.py  the learner kernel's `classroom.grading`: a `check` that checks nothing
- assignments.py, gradebook.py, feedback.py, nbgrader.py: what a teacher gets

The learner's code only ever runs in the sandbox, whose kernel has a copy of the agent
and the kit but not the checks; the checks, with their own copy of the course, only ever
run in the worker. Nothing the sandbox prints or writes is a verdict: what it reports
(a call's result, the course's code the call ran) the worker judges.
"""
