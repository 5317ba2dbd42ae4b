"""Grading a class: each notebook runs in its own sandbox, the checks run outside it.

- wire.py       plain data across the process boundary (values, functions, errors)
- channel.py    JSON lines over a pair of pipes, with deadlines and a size limit
- runner.py     inside the sandbox: run the notebook's cells, then answer calls
- sandbox.py    start the runner isolated (namespaces where allowed, limits, cleanup), and
                police the notebook's processes from outside
- withhold.py   each assignment's copy of the course for the sandbox: the code its exercises
                ask for replaced by stubs (`own_work`)
- lending.py    what the grader answers the notebook's own code while its cells run (the
                course model, served functions), and refuses once the checks start
- remote_standin.py  the sandbox's `standin`: a door to the grader's course model
- equivalents.py  course functions that do an exercise's work, found by their answers
- remote.py     the grader's side: the learner's functions as callables that cross over
- worker.py     grade one notebook in a clean process and print its results as JSON
- sources.py    the grader's own reading of the cells (imports under graded names, ...)
- kernel_grading.py  the learner kernel's `classroom.grading`: a `check` that checks nothing
- assignments.py, gradebook.py, feedback.py, nbgrader.py: what a teacher gets

The learner's code only ever runs in the sandbox, whose kernel has a copy of the agent
and the kit with its assignment's own code withheld, no stand-in, no checks and no
harness; the checks, with their own copy of the course, only ever run in the worker, on
inputs drawn at grading time. Nothing the sandbox prints or writes is a verdict: what it
answers is the learner's answer, and the worker judges it.
"""
