# Ported from the anthropic Python SDK 2.14.0 (the version constraints.txt pins), examples/tools_runner.py,
# MIT license, Copyright 2023 Anthropic, PBC. Lines changed for the course end with
# "# course: ..." and say why; tests/test_sdk_examples.py runs this file.
import json
from typing_extensions import Literal

import agentlib  # course: the offline client (rich, used below, is not installed)
from coursekit import workloads  # course: a course task instead of the weather

from anthropic import Anthropic, beta_tool

client = agentlib.connect(offline=True)  # course: was Anthropic()
work = workloads.needle(400)  # course: the course's incident log and its task


@beta_tool
def get_weather(location: str, units: Literal["c", "f"]) -> str:
    """Lookup the weather for a given city in either celsius or fahrenheit

    Args:
        location: The city and state, e.g. San Francisco, CA
        units: Unit for the output, either 'c' for celsius or 'f' for fahrenheit
    Returns:
        A dictionary containing the location, temperature, and weather condition.
    """
    # Simulate a weather API call
    print(f"Fetching weather for {location} in {units}")

    # Here you would typically make an API call to a weather service
    # For demonstration, we return a mock response
    if units == "c":
        return json.dumps(
            {
                "location": location,
                "temperature": "20°C",
                "condition": "Sunny",
            }
        )
    else:
        return json.dumps(
            {
                "location": location,
                "temperature": "68°F",
                "condition": "Sunny",
            }
        )


def main() -> None:
    runner = client.beta.messages.tool_runner(
        max_tokens=1024,
        model="claude-sonnet-5-5",
        # alternatively, you can use `tools=[anthropic.beta_tool(get_weather)]`
        tools=[get_weather, beta_tool(work.workspace.read_file)],  # course: + the log's reader
        messages=[{"role": "user", "content": work.task}],  # course: was the weather in SF
    )
    for message in runner:
        print(message)  # course: was rich.print (rich is not installed)


main()
