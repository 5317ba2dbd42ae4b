"""The course model's behaviour (placeholder until the agent issue lands)."""


def respond(*, system, tools, messages, seed):
    return [{"type": "text", "text": "Hello from the offline course model."}]
