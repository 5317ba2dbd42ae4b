"""The classroom: `check()` and the exercise checks, the class grader and its sandbox, the
reports and the nbgrader export. It uses the agent (`agentlib`) and the bench (`coursekit`);
neither of them imports it."""
