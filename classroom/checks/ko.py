"""The Korean edition's words for every check: (exercise, English title) -> (Korean title,
Korean hint, or "" to keep the check's hint). `check()` uses them in a Korean notebook,
the grader with `--lang ko`; tests/test_i18n.py fails when a check has no entry here.

`PHRASES_KO`: the classroom's own fixed phrases (English -> Korean, `{name}` filled in),
which `classroom.grading.translate` tries before the course's catalog (coursekit.i18n). A
particle after a value is the tail of its placeholder, written as after a consonant:
"{got:을}" is 3을 or 2를 (coursekit/particles.py; never 을(를)).
"""

from coursekit.i18n import templates

PHRASES_KO: dict[str, str] = {
    # graded work is the learner's own (classroom/ownwork.py, classroom/grading.py)
    "NOTE": "참고",
    "uses the course's own {names}; write it yourself: a check passed that way earns no "
    "points": "코스에 이미 있는 {names:을} 가져다 씁니다. 직접 작성하세요: 이렇게 통과한 "
              "검사는 점수를 받지 못합니다",
    "uses the course's own {names}; write it yourself: the class grader gives no points to a "
    "check passed that way": "코스에 이미 있는 {names:을} 가져다 씁니다. 직접 작성하세요: "
                             "수업 채점기는 이렇게 통과한 검사에 점수를 주지 않습니다",
    "uses the exercise checks' own {names}; write it yourself: the class grader's kernel "
    "cannot import classroom.checks": "연습 문제 검사에 있는 {names:을} 가져다 씁니다. 직접 "
                                      "작성하세요: 수업 채점기의 커널에서는 classroom.checks를 "
                                      "가져올 수 없습니다",
    "{what} while it ran: the grader cannot tell whose code ran, so the check earns no "
    "points": "실행 중에 {what}: 누구의 코드가 실행됐는지 채점기가 알 수 없으므로 이 검사는 "
              "점수를 받지 못합니다",
    "its notebook's code names {names}, which no exercise needs and which could switch off "
    "the grader's watch: the check earns no points": "노트북 코드가 어떤 연습 문제에도 필요 "
                                                      "없는 {names:을} 씁니다. 채점기의 "
                                                      "감시를 끌 수 있는 것이므로 이 검사는 "
                                                      "점수를 받지 못합니다",
    "switched off the watch ({event})": "채점기의 감시를 껐습니다({event})",
    "switched off the watch of new threads ({event})": "새 스레드에 대한 채점기의 감시를 "
                                                       "껐습니다({event})",
    "started another process": "다른 프로세스를 시작했습니다",
    # the class grader's own words (issue 39): what a withheld stub says (classroom/
    # withheld.py, classroom/grader/withhold.py), a graded name bound by an import, the
    # notes of a run (classroom/grader/worker.py, classroom/grade.py) and why a file is no
    # notebook (classroom/grader/assignments.py); code, names and error text stay as they are
    "{where} raised Withheld: {message}": (
        "{where}에서 채점에서 빼 둔 코드를 불렀습니다(Withheld): {message}"),
    "raised Withheld: {message}": "채점에서 빼 둔 코드를 불렀습니다(Withheld): {message}",
    "`{name}` ({module}) is not available while {exercise} is graded: it is what that exercise "
    "asks you to write yourself": (
        "{exercise:을} 채점하는 동안에는 쓸 수 없습니다: `{name}`({module}). 그 연습 문제에서 "
        "직접 작성해야 하는 것입니다"),
    "`{name}` ({module}) is not available while {names} are graded: they ask you to write it "
    "yourself": (
        "{names:을} 채점하는 동안에는 쓸 수 없습니다: `{name}`({module}). 이 연습 문제들에서 "
        "직접 작성해야 하는 것입니다"),
    "[{name} is not available while {exercise} is graded: it is what that exercise asks you to "
    "write]": "[{exercise:을} 채점하는 동안에는 {name:을} 쓸 수 없습니다: 그 연습 문제에서 직접 "
               "작성해야 하는 것입니다]",
    "{how}: an import is not your own function; write it yourself (it earns no points)": (
        "{how}: 가져온 것은 직접 작성한 함수가 아닙니다. 직접 작성하세요(점수를 받지 못합니다)"),
    "{how}: an import is not your own function; write it yourself: the class grader gives no "
    "points to a check passed that way": (
        "{how}: 가져온 것은 직접 작성한 함수가 아닙니다. 직접 작성하세요: 수업 채점기는 이렇게 "
        "통과한 검사에 점수를 주지 않습니다"),
    "`{name}` is imported in cell {n} (`{text}`)": "`{name}`: 셀 {n}에서 가져옵니다(`{text}`)",
    "`{name}` is the course's `{own}` ({module}) under another name": (
        "`{name}`: 코스의 `{own}`({module})에 다른 이름을 붙인 것입니다"),
    "`{name}` is not defined: cell {n} imports it (`{text}`), which raised {error}; an import "
    "is not your own function: write it yourself": (
        "`{name}`: 정의되지 않았습니다. 셀 {n}에서 가져오는데(`{text}`) 그 셀에서 {error} "
        "발생했습니다. 가져온 것은 직접 작성한 함수가 아닙니다: 직접 작성하세요"),
    "`{name}` is not defined: cell {n} imports it (`{text}`); an import is not your own "
    "function: write it yourself": (
        "`{name}`: 정의되지 않았습니다. 셀 {n}에서 가져옵니다(`{text}`). 가져온 것은 직접 작성한 "
        "함수가 아닙니다: 직접 작성하세요"),
    "`{name}` is not defined: cell {n}, which defines it, raised {error}": (
        "`{name}`: 정의되지 않았습니다. 이 이름을 정의하는 셀 {n}에서 {error} 발생했습니다"),
    "`{name}` is not defined at the end of the notebook, although cell {n} defines it": (
        "`{name}`: 셀 {n}에서 정의하지만 노트북이 끝났을 때는 정의되어 있지 않습니다"),
    "cell {n} stopped at what grading withholds ({message}); that costs nothing by itself": (
        "셀 {n:이} 채점에서 빼 둔 코드에서 멈췄습니다({message}). 그것만으로 잃는 점수는 "
        "없습니다"),
    "cell {n}: your `{function}` stopped at what grading withholds ({message}); write it "
    "without the course's own code": (
        "셀 {n}: 여러분이 작성한 `{function}` 안에서 채점에서 빼 둔 코드를 만나 멈췄습니다"
        "({message}). 코스의 코드 없이 작성하세요"),
    "timed out after {s} s in cell {n}": "셀 {n}에서 {s}초 뒤 시간 초과",
    "{error} in cell {n}: {message}": "셀 {n}에서 {error} 발생: {message}",
    "stopped at the {s} s deadline in cell {n}": "셀 {n}에서 마감 시간 {s}초에 멈췄습니다",
    "cell {n} did not stop at its {s} s limit: the notebook ignored the interrupt": (
        "셀 {n:이} 제한 시간 {s}초에 멈추지 않았습니다: 노트북이 중단 신호를 무시했습니다"),
    "the notebook's process did not start": "노트북의 프로세스가 시작되지 않았습니다",
    "the notebook's process died {where} ({how})": "노트북의 프로세스가 {where} 죽었습니다({how})",
    "the notebook's process died {where}": "노트북의 프로세스가 {where} 죽었습니다",
    "before its first cell": "첫 셀 전에",
    "after its last cell": "마지막 셀 뒤에",
    "in cell {n}": "셀 {n}에서",
    "the notebook's process went off script in cell {n}": (
        "노트북의 프로세스가 셀 {n}에서 정해진 순서를 벗어났습니다"),
    "the notebook's process sent garbage ({error})": (
        "노트북의 프로세스가 알아볼 수 없는 데이터를 보냈습니다({error})"),
    "grading refuses threads a notebook's cells leave running when its exercises are watched "
    "({count} found): a thread could do a graded function's work where the watch does not look; "
    "end them before the checks (executor.shutdown())": (
        "연습 문제를 감시할 때, 채점기는 노트북의 셀이 실행 중인 채로 남긴 스레드를 받아들이지 "
        "않습니다(찾은 스레드 {count}개): 스레드는 감시가 닿지 않는 곳에서 채점할 함수의 일을 할 수 "
        "있습니다. 검사 전에 끝내세요(executor.shutdown())"),
    "the notebook's cells reached for {what}, which could find and blind the grader's watch of "
    "its exercises: its checks earn no points": (
        "노트북의 셀이 {what}에 손을 댔습니다. 연습 문제에 대한 채점기의 감시를 찾아 끌 수 있는 "
        "것이므로 이 노트북의 검사는 점수를 받지 못합니다"),
    "grading stopped {count} process(es) the notebook's cells left running: a notebook's "
    "processes end with its cells": (
        "채점기가 노트북의 셀이 실행 중인 채로 남긴 프로세스 {count}개를 멈췄습니다: 노트북의 "
        "프로세스는 셀과 함께 끝나야 합니다"),
    "the grader failed on this notebook: {error}": "이 노트북에서 채점기가 실패했습니다: {error}",
    "the grader's worker failed: {error}": "채점기의 작업 프로세스가 실패했습니다: {error}",
    "its report could not be written ({error})": "보고서를 쓰지 못했습니다({error})",
    "no notebook for assignment {a} was handed in": "과제 {a}의 노트북이 제출되지 않았습니다",
    "cannot tell which assignment this notebook is: name it with --assignment": (
        "이 노트북이 어느 과제인지 알 수 없습니다: --assignment로 알려 주세요"),
    "not graded: larger than {n} MB": "채점하지 않음: {n} MB보다 큽니다",
    "not graded: the file cannot be read ({error})": "채점하지 않음: 파일을 읽을 수 없습니다({error})",
    "not a notebook: the file is not UTF-8 text": "노트북이 아님: 파일이 UTF-8 텍스트가 아닙니다",
    "not a notebook: no list of cells (\"cells\")": "노트북이 아님: 셀 리스트(\"cells\")가 없습니다",
    "not a notebook: cell {n} is a {type}, not a cell": "노트북이 아님: 셀 {n:이} 셀이 아니라 {type}입니다",
    "not a notebook: cell {n} has no cell_type": "노트북이 아님: 셀 {n}에 cell_type이 없습니다",
    "not a notebook: cell {n}'s source holds a {type} ({value}), not a line of text": (
        "노트북이 아님: 셀 {n}의 source에 텍스트 줄이 아닌 값이 있습니다: {type}({value})"),
    "not a notebook: cell {n}'s source is a {type}, not text": (
        "노트북이 아님: 셀 {n}의 source가 텍스트가 아니라 {type}입니다"),
    "not a notebook: cell {n} holds {size} MB of source (a cell may hold {limit} MB)": (
        "노트북이 아님: 셀 {n}의 source가 {size} MB입니다(셀 하나에 {limit} MB까지)"),
    "not a notebook: {error}": "노트북이 아님: {error}",
    # the grading's own words (classroom/grading.py): timeouts, unknown exercises, a check
    # that fails by itself; API error strings and code in the {slots} stay as they are
    "timed out after {s} s in {where}": "{where}에서 {s}초 뒤 시간 초과",
    "timed out after {s} s and did not stop": "{s}초 뒤 시간 초과, 멈추지 않았습니다",
    "timed out": "시간 초과",
    "check failed": "검사 실패",
    "exercise exists": "연습 문제가 있다",
    "no checks registered for {name}": "{name}에 등록된 검사가 없습니다",
    "the check itself failed ({error})": "검사 자체가 실패했습니다 ({error})",
    "{where} raised AssertionError: {message}": "{where}에서 AssertionError가 발생했습니다: {message}",
    "{where} raised {error}": "{where}에서 {error} 발생",
    "raised {error}": "{error} 발생",
    # the checks' computed failure details (templates; add right below your own line)
    # lessons 01-04 details
    "a bug in the check": "검사의 버그",
    "no test case (a bug in the check)": "테스트 사례가 없습니다(검사의 버그)",
    "should return a list of messages, got {type}": "메시지 리스트를 반환해야 합니다. 돌아온 것은 "
                                                    "{type}입니다",
    # lesson 01: ex1.agent_loop
    "the API rejected a request with {status}: {message}": "API가 요청을 {status} 오류로 "
                                                           "거부했습니다: \"{message}\"",
    "agent_loop should return (history, input_tokens), got {type}": "agent_loop은 (history, "
                                                                    "input_tokens)를 반환해야 "
                                                                    "합니다. 돌아온 것은 "
                                                                    "{type}입니다",
    "history and input_tokens should be lists, got {a} and {b}": "history와 input_tokens는 "
                                                                 "리스트여야 합니다. 돌아온 것은 "
                                                                 "{a}, {b}입니다",
    "input_tokens is empty: record response.usage.input_tokens each turn": "input_tokens가 비어 "
                                                                           "있습니다: 턴마다 "
                                                                           "response.usage."
                                                                           "input_tokens를 "
                                                                           "기록하세요",
    "input_tokens should hold ints (usage.input_tokens), got {bad}": "input_tokens에는 int"
                                                                     "(usage.input_tokens)가 "
                                                                     "들어 있어야 합니다. 들어 "
                                                                     "있는 값: {bad}",
    "the history should start with the user's task": "히스토리는 사용자의 과제로 시작해야 합니다",
    "request {i} sent {got} input tokens, the reference loop sent {want}: is every earlier "
    "message still in the list you send?": "요청 {i:은} 입력 토큰 {got}개를 보냈고, 기준 루프는 "
                                           "{want}개를 보냈습니다. 보내는 리스트에 앞선 메시지가 "
                                           "모두 남아 있나요?",
    "your loop made {n} requests and stopped; the task needs {m} (stop only when stop_reason "
    "is not 'tool_use')": "루프가 요청을 {n}번 보내고 멈췄습니다. 이 과제에는 {m}번이 필요합니다"
                          "(stop_reason이 'tool_use'가 아닐 때만 멈추세요)",
    "history roles differ from the reference at message {i}: got {got}, expected {want} ({n} "
    "messages, the reference has {m}); the order is user (task), then assistant / user (tool "
    "results) pairs, ending with the assistant's answer": "히스토리의 역할이 메시지 {i}에서 "
                                                          "기준과 다릅니다: 돌아온 값은 {got}, "
                                                          "기대값은 {want}입니다(메시지 {n}개, "
                                                          "기준은 {m}개). 순서는 user(과제), "
                                                          "그다음 assistant / user(도구 결과) "
                                                          "쌍이고, 어시스턴트의 답으로 끝납니다",
    "your loop made {n} requests; the model answered after {m}": "루프가 요청을 {n}번 "
                                                                 "보냈습니다. 모델은 {m}번째 "
                                                                 "요청에서 답했습니다",
    "the history should end with the model's answer": "히스토리는 모델의 답으로 끝나야 합니다",
    "the last message should be the model's final answer, unchanged": "마지막 메시지는 모델의 "
                                                                      "최종 답 그대로여야 "
                                                                      "합니다",
    "the audit is too short (a bug in the check)": "감사 과제가 너무 짧습니다(검사의 버그)",
    "with max_steps={k} your loop sent {n} requests; the task needs {m}, so the loop must stop "
    "after {limit}": "max_steps={k}일 때 루프가 요청을 {n}번 보냈습니다. 이 과제에는 {m}번이 "
                     "필요하므로 루프는 {limit}번 뒤에 멈춰야 합니다",
    "with max_steps={k} the model received {n} request(s); input_tokens should hold one count "
    "per request": "max_steps={k}일 때 모델은 요청을 {n}번 받았습니다. input_tokens에는 요청마다 "
                   "개수가 하나씩 있어야 합니다",
    # lesson 01: ex1.estimate_tokens, ex1.session_cost, ex1.first_overflow
    "estimate_tokens({text}) should return an int, got {type} {got}": "estimate_tokens({text})는 "
                                                                      "int를 반환해야 합니다. "
                                                                      "돌아온 것은 {type} "
                                                                      "{got}입니다",
    "estimate_tokens({text}) should be {want} ({n} characters), got {got}": "estimate_tokens("
                                                                            "{text})의 기대값은 "
                                                                            "{want}({n}자), "
                                                                            "돌아온 값은 "
                                                                            "{got}입니다",
    "estimate_tokens({text}) should be {want}, got {got}": "estimate_tokens({text})의 기대값은 "
                                                           "{want}, 돌아온 값은 {got}입니다",
    "for {n} characters the estimate is {want}, got {got}": "{n}자이면 추정치는 {want}인데, "
                                                            "돌아온 값은 {got}입니다",
    "session_cost should return a number of dollars, got {type}": "session_cost는 달러 금액을 "
                                                                  "숫자로 반환해야 합니다. "
                                                                  "돌아온 것은 {type}입니다",
    "three requests of 1,000, 2,000 and 3,000 input tokens at $3 per million cost $0.018, got "
    "{got}": "입력 토큰이 1,000개, 2,000개, 3,000개인 요청 세 번은 백만 토큰당 $3이면 $0.018인데, "
             "돌아온 값은 {got}입니다",
    "one million input tokens at $3 per million cost $3, got {got}": "입력 토큰 백만 개는 백만 "
                                                                     "토큰당 $3이면 $3인데, "
                                                                     "돌아온 값은 {got}입니다",
    "one million output tokens at $15 per million cost $15, got {got}": "출력 토큰 백만 개는 "
                                                                        "백만 토큰당 $15이면 "
                                                                        "$15인데, 돌아온 값은 "
                                                                        "{got}입니다",
    "2M input at $1 plus 0.5M output at $5 is $4.50, got {got}": "입력 2M 토큰(백만 토큰당 $1)과 "
                                                                 "출력 0.5M 토큰(백만 토큰당 "
                                                                 "$5)은 $4.50인데, 돌아온 값은 "
                                                                 "{got}입니다",
    "no requests cost nothing, got {got}": "요청이 없으면 비용은 0인데, 돌아온 값은 {got}입니다",
    "first_overflow({args}) should be the index {want}, got {got}": "first_overflow({args})의 "
                                                                    "기대값은 인덱스 {want}, "
                                                                    "돌아온 값은 {got}입니다",
    "250 tokens fit a 250-token window; the answer is 2, got {got}": "250 토큰은 250 토큰 "
                                                                     "윈도우에 들어가므로 답은 "
                                                                     "2인데, 돌아온 값은 "
                                                                     "{got}입니다",
    "200 input + 60 max_tokens = 260 > 250, so step 1 fails, got {got}": "입력 200 + max_tokens "
                                                                         "60 = 260 > 250이므로 "
                                                                         "1단계에서 실패하는데, "
                                                                         "돌아온 값은 {got}입니다",
    "first_overflow({args}) should be None, got {got}": "first_overflow({args})의 기대값은 None, "
                                                        "돌아온 값은 {got}입니다",
    "in an 8,000-token window the API refused step {refused} (prompt is too long), got {got}": (
        "8,000 토큰 윈도우에서 API는 {refused}단계를 거부했습니다(`prompt is too long`). 돌아온 "
        "값은 {got}입니다"),
    "with max_tokens=2048, step {short} is the first that leaves less than 2,048 tokens for the "
    "reply, got {got}": "max_tokens=2048이면 응답에 남는 자리가 2,048 토큰보다 적은 첫 단계는 "
                        "{short}인데, 돌아온 값은 {got}입니다",
    # lesson 02: where a check ran, and ex2.find_split
    "on test history #{number} ({n} messages, keep={keep})": "테스트 히스토리 #{number}(메시지 "
                                                             "{n}개, keep={keep})에서",
    "on test history #{number} ({n} messages)": "테스트 히스토리 #{number}(메시지 {n}개)에서",
    "find_split(history[-{n}:]) {where} returned {got}; its message 0 opens with a tool_result "
    "whose tool_use was cut off, so expected 0": "{where} find_split(history[-{n}:])의 반환값은 "
                                                 "{got}입니다. 메시지 0이 tool_use가 잘려 나간 "
                                                 "tool_result로 시작하므로 기대값은 0입니다",
    "find_split(history[:1] + history[-{n}:]) {where} returned {got}; with the task kept in "
    "front, message 1 opens with a tool_result whose tool_use was cut off, so expected 1": (
        "{where} find_split(history[:1] + history[-{n}:])의 반환값은 {got}입니다. 과제를 앞에 "
        "남겨 두면 메시지 1이 tool_use가 잘려 나간 tool_result로 시작하므로 기대값은 1입니다"),
    "find_split(history[-{n}:]) {where} returned {got}, but every tool_result there follows "
    "its tool_use: expected None": "{where} find_split(history[-{n}:])의 반환값은 {got}입니다. "
                                   "그러나 여기서는 모든 tool_result가 자기 tool_use 뒤에 있으므로 "
                                   "기대값은 None입니다",
    "find_split {where} with message {i} (an assistant tool_use) deleted returned {got}; its "
    "result is now message {j} and follows a user message: expected {k}": "{where} 메시지 {i}"
                                                                          "(어시스턴트의 "
                                                                          "tool_use)를 지우고 "
                                                                          "호출한 find_split의 "
                                                                          "반환값은 {got}입니다. "
                                                                          "그 결과가 이제 메시지 "
                                                                          "{j}이고 사용자 메시지 "
                                                                          "뒤에 오므로 기대값은 "
                                                                          "{k}입니다",
    "find_split {where} with a user and an assistant text message put between the tool_use in "
    "message {i} and its results returned {got}; the results are now message {j}, and the "
    "message just before them holds no tool_use: expected {k}": "{where} 메시지 {i}의 tool_use와 "
                                                                "그 결과 사이에 사용자 텍스트 "
                                                                "메시지와 어시스턴트 텍스트 "
                                                                "메시지를 넣고 호출한 find_split의 "
                                                                "반환값은 {got}입니다. 결과는 이제 "
                                                                "메시지 {j}이고, 바로 앞 메시지에는 "
                                                                "tool_use가 없으므로 기대값은 "
                                                                "{k}입니다",
    # lesson 02: ex2.safe_truncate, ex2.pin_task
    "safe_truncate {where} returned a history the API rejects with 400: {message}": (
        "{where} safe_truncate의 반환값은 API가 400 오류로 거부하는 히스토리입니다: \"{message}\""),
    "pin_task {where} returned a history the API rejects with 400: {message}": (
        "{where} pin_task의 반환값은 API가 400 오류로 거부하는 히스토리입니다: \"{message}\""),
    "safe_truncate {where} should return the newest messages of the history in order (a slice "
    "messages[start:]); got {n} message(s) that are not": "{where} safe_truncate는 히스토리의 가장 "
                                                          "최근 메시지들을 순서대로(슬라이스 "
                                                          "messages[start:]) 반환해야 합니다. "
                                                          "돌아온 메시지 {n}개는 그렇지 않습니다",
    "safe_truncate {where} kept only {n} message(s); keep at least keep": "{where} safe_truncate는 "
                                                                          "메시지를 {n}개만 "
                                                                          "남겼습니다. 적어도 "
                                                                          "keep개는 남기세요",
    "safe_truncate {where} kept {n} message(s); the smallest valid cut keeps {want} (keep, plus "
    "the call whose result would open the kept part)": "{where} safe_truncate는 메시지 {n}개를 "
                                                       "남겼습니다. 유효한 가장 작은 자르기는 "
                                                       "{want}개를 남깁니다(keep개에, 남긴 부분의 "
                                                       "맨 앞 결과를 부른 호출을 더한 수)",
    "safe_truncate {where} changed the list it was given": "{where} safe_truncate가 입력으로 받은 "
                                                           "리스트를 바꿨습니다",
    "pin_task {where} lost the task: its first message should be the history's first user "
    "message, {text}": "{where} pin_task가 과제를 잃었습니다: 첫 메시지는 히스토리의 첫 사용자 "
                       "메시지 {text}여야 합니다",
    "pin_task {where}: nothing needs dropping, so return the history unchanged; got {n} "
    "message(s) that differ from it": "{where} 버릴 것이 없으므로 pin_task는 히스토리를 그대로 "
                                      "반환해야 합니다. 돌아온 메시지 {n}개는 히스토리와 다릅니다",
    "pin_task {where}: after the task (and at most one marker message) should come the newest "
    "messages of the history, in order": "{where} pin_task가 반환한 히스토리는 과제(와 많아야 "
                                         "하나인 표시 메시지) 다음에 히스토리의 가장 최근 "
                                         "메시지들이 순서대로 이어져야 합니다",
    "pin_task {where} kept {n} message(s) after the task; the smallest valid cut keeps {m}": (
        "{where} pin_task는 과제 뒤에 메시지 {n}개를 남겼습니다. 유효한 가장 작은 자르기는 "
        "{m}개를 남깁니다"),
    "pin_task {where} changed the list it was given": "{where} pin_task가 입력으로 받은 리스트를 "
                                                      "바꿨습니다",
    # lesson 03: ex3.cap_text
    "for a text of {n} characters and max_chars={m}": "{n}자 텍스트, max_chars={m}일 때",
    "cap_text should return a str, got {type}": "cap_text는 str을 반환해야 합니다. 돌아온 것은 "
                                                "{type}입니다",
    "cap_text {where} returned a result without the notice '\\n[truncated: N more characters "
    "not shown; ...]' at its end: a silent cut makes the model take the part for the whole; it "
    "ends with {end}": "{where} cap_text의 반환값 끝에 안내문 '\\n[truncated: N more characters "
                       "not shown; ...]'이 없습니다. 조용히 자르면 모델은 일부를 전체로 "
                       "여깁니다. 반환값의 끝: {end}",
    "the notice should say how to get more (the `more` text)": "안내문은 더 보는 방법(`more` "
                                                               "텍스트)을 알려야 합니다",
    "with more={more} the notice should end with it, got {said}": "more={more}이면 안내문이 그 "
                                                                  "텍스트로 끝나야 하는데, "
                                                                  "돌아온 것은 {said}입니다",
    "cap_text {where} should return the text unchanged (it fits; no notice either), got {n} "
    "characters": "{where} cap_text는 텍스트를 안내문 없이 그대로 반환해야 합니다(들어가므로). "
                  "돌아온 것은 {n}자입니다",
    "cap_text {where} returned {n} characters, {over} over the budget: the notice must fit "
    "inside it": "{where} cap_text가 {n}자를 반환했습니다. 예산보다 {over}자 많습니다: 안내문도 "
                 "예산 안에 들어가야 합니다",
    "cap_text {where}: the part before the notice should be the start of the text, "
    "unchanged": "{where} cap_text가 반환한 텍스트에서 안내문 앞부분은 원래 텍스트의 앞부분 "
                 "그대로여야 합니다",
    "cap_text {where} kept {kept} characters, so {left} were left out; the notice says "
    "{said}": "{where} cap_text는 {kept}자를 남겼으므로 {left}자가 빠졌습니다. 그런데 안내문은 "
              "{said}자라고 합니다",
    "cap_text {where} kept {kept} characters of the text; {room} fit beside the notice": (
        "{where} cap_text는 텍스트를 {kept}자 남겼습니다. 안내문 옆에 {room}자가 들어갑니다"),
    # lesson 03: ex3.page_notice
    "page_notice should return a str, got {type}": "page_notice는 str을 반환해야 합니다. 돌아온 "
                                                   "것은 {type}입니다",
    "page_notice({args}) returned a text that is not one line in the course's notice format "
    "(see agentlib.workspace.truncation_notice), so the course model could not read it: "
    "{got}": "page_notice({args})의 반환값은 코스의 안내문 형식에 맞는 한 줄이 아니어서"
             "(agentlib.workspace.truncation_notice 참고) 코스 모델이 읽을 수 없습니다: {got}",
    "the notice names another path": "안내문이 다른 경로를 가리킵니다",
    "page_notice({args}) says lines {a}-{b} of {c} shown, {d} more; expected lines {e}-{f} of "
    "{g}, {h} more": "page_notice({args})의 안내문은 {c}줄 중 {a}-{b}줄을 보여 주고 {d}줄이 "
                     "남았다고 합니다. 기대값은 {g}줄 중 {e}-{f}줄, 남은 줄 {h}개입니다",
    "page_notice({args}) says continue at offset={o}; lines {a}..{b} (0-based) were shown, so "
    "the next offset is {n}": "page_notice({args})는 offset={o}에서 이어 읽으라고 합니다. 보여 "
                              "준 줄은 {a}..{b}(0부터 셈)이므로 다음 오프셋은 {n}입니다",
    "page_notice({args}): the page reaches the end, so return '', got {got}": (
        "page_notice({args}): 이 페이지가 파일 끝에 닿으므로 ''를 반환해야 하는데, 돌아온 값은 "
        "{got}입니다"),
    "the notices never stop: the agent would read forever": "안내문이 끝나지 않습니다: 에이전트가 "
                                                            "끝없이 읽게 됩니다",
    "after the page at offset {o} the notice sends the agent back to offset {b}": (
        "오프셋 {o}의 페이지 다음에 안내문이 에이전트를 뒤로 돌려보냅니다(오프셋 {b})"),
    "reading a {total}-line file {size} lines at a time by following your notices gave {got} "
    "lines instead of {want}: lines were repeated": "{total}줄짜리 파일을 안내문을 따라 {size}줄씩 "
                                                    "읽으니 {want}줄이 아니라 {got}줄이 "
                                                    "나왔습니다: 줄이 중복됐습니다",
    "reading a {total}-line file {size} lines at a time by following your notices gave {got} "
    "lines instead of {want}: lines were skipped": "{total}줄짜리 파일을 안내문을 따라 {size}줄씩 "
                                                   "읽으니 {want}줄이 아니라 {got}줄이 "
                                                   "나왔습니다: 건너뛴 줄이 있습니다",
    "page_notice({args}): parse_notice reads back {found} as the path of the notice it "
    "returned, {got}": "page_notice({args}): 반환한 안내문에서 parse_notice가 읽어 낸 경로는 "
                       "{found}입니다. 반환한 안내문: {got}",
    # lesson 03: ex3.capped_tool
    "capped_tool should return a function, got {type}": "capped_tool은 함수를 반환해야 합니다. "
                                                        "돌아온 것은 {type}입니다",
    "Toolbox cannot build a definition from the wrapper: {error}": "Toolbox가 래퍼에서 도구 "
                                                                   "정의를 만들 수 없습니다: "
                                                                   "\"{error}\"",
    "the wrapper's tool definition differs from the tool's in {fields}: its {first} is {got}, "
    "expected {want}": "래퍼의 도구 정의가 원래 도구의 정의와 {fields}에서 다릅니다: {first}의 "
                       "값은 {got}, 기대값은 {want}입니다",
    "wrapper({call}) failed with TypeError: {error}; the model's tool calls arrive as keyword "
    "arguments": "wrapper({call}) 호출이 TypeError로 실패했습니다: \"{error}\". 모델의 도구 호출은 "
                 "키워드 인자로 들어옵니다",
    "wrapper({call}) did not call the tool, expected {want}": "wrapper({call})가 도구를 호출하지 "
                                                              "않았습니다. 기대한 호출은 "
                                                              "{want}입니다",
    "wrapper({call}) called the tool with {got}, expected {want}": "wrapper({call})가 도구에 넘긴 "
                                                                   "인자는 {got}, 기대값은 "
                                                                   "{want}입니다",
    "a result that fits the budget should come back unchanged": "예산에 들어가는 결과는 그대로 "
                                                                "돌아와야 합니다",
    "the wrapper should return a str, got {type}": "래퍼는 str을 반환해야 합니다. 돌아온 것은 "
                                                   "{type}입니다",
    "with max_chars={m} the wrapper returned {n} characters of a {full}-character result": (
        "max_chars={m}인데 래퍼가 {full}자짜리 결과에서 {n}자를 반환했습니다"),
    "the result was cut from {a} to {b} characters without a notice: a silent cut makes the "
    "model take the part for the whole": "결과가 안내문 없이 {a}자에서 {b}자로 잘렸습니다. "
                                         "조용히 자르면 모델은 일부를 전체로 여깁니다",
    "the cut result should start as the tool's output does": "잘린 결과는 도구의 출력과 같은 "
                                                             "내용으로 시작해야 합니다",
    "the tool call failed: {content}": "도구 호출이 실패했습니다: \"{content}\"",
    "a tool returning a list of 400 ids gave a tool_result of {n} characters; cap str(result) "
    "to 400 characters, with a notice": "id 400개의 리스트를 반환하는 도구가 {n}자짜리 "
                                        "tool_result를 냈습니다. str(result)를 안내문과 함께 "
                                        "400자 안으로 자르세요",
    "one call to the wrapper ran the tool {n} times; a tool may be slow, cost money or change "
    "something": "래퍼를 한 번 호출했더니 도구가 {n}번 실행됐습니다. 도구는 느리거나, 비용이 "
                 "들거나, 무언가를 바꿀 수 있습니다",
    # lesson 04: which test history, and ex4.empty_not_delete
    "test history #{number} ({n} messages, {r} tool results)": "테스트 히스토리 #{number}(메시지 "
                                                               "{n}개, 도구 결과 {r}개)",
    "a test history ({n} messages)": "테스트 히스토리(메시지 {n}개)",
    "empty_result(messages, {id}, placeholder) on {history} returned a history the API "
    "rejects with 400: {message}": "{history}에서 empty_result(messages, {id}, placeholder)의 "
                                   "반환값은 API가 400 오류로 거부하는 히스토리입니다: "
                                   "\"{message}\"",
    "empty_result(messages, {id}, placeholder) on {history}: the tool_result for {other} is "
    "gone; keep the block (type 'tool_result', the same tool_use_id) and replace its "
    "content": "{history}에서 empty_result(messages, {id}, placeholder)를 호출하니 {other}의 "
               "tool_result가 사라졌습니다. 블록(타입 'tool_result', 같은 tool_use_id)은 그대로 "
               "두고 content만 바꾸세요",
    "empty_result(messages, {id}, placeholder) on {history}: that result's content is "
    "{content}; it should be exactly the placeholder {placeholder}": "{history}에서 "
                                                                     "empty_result(messages, "
                                                                     "{id}, placeholder)를 "
                                                                     "호출하니 그 결과의 "
                                                                     "content가 {content}입니다. "
                                                                     "정확히 자리표시자 "
                                                                     "{placeholder}여야 합니다",
    "empty_result(messages, {id}, placeholder) on {history} returned {n} messages; the history "
    "has {m} and none should go": "{history}에서 empty_result(messages, {id}, placeholder)가 "
                                  "메시지 {n}개를 반환했습니다. 히스토리에는 {m}개가 있고, 하나도 "
                                  "빠지면 안 됩니다",
    "empty_result(messages, {id}, placeholder) on {history}: message {i} changed its role or "
    "number of blocks": "{history}에서 empty_result(messages, {id}, placeholder)를 호출하니 메시지 "
                        "{i}의 역할이나 블록 수가 바뀌었습니다",
    "empty_result(messages, {id}, placeholder) on {history}: block {j} of message {i} changed, "
    "but only the result of {other} should": "{history}에서 empty_result(messages, {id}, "
                                             "placeholder)를 호출하니 메시지 {i}의 블록 {j:이} "
                                             "바뀌었습니다. 바뀌어야 하는 것은 {other}의 "
                                             "결과뿐입니다",
    "empty_result(messages, {id}, placeholder) on {history} changed the list it was given": (
        "{history}에서 empty_result(messages, {id}, placeholder)가 입력으로 받은 리스트를 "
        "바꿨습니다"),
    # lesson 04: ex4.clear_old_results
    "clear_old_results(messages, keep={keep}) on {history} returned a history the API rejects "
    "with 400: {message}": "{history}에서 clear_old_results(messages, keep={keep})의 반환값은 "
                           "API가 400 오류로 거부하는 히스토리입니다: \"{message}\"",
    "it cleared results {got} (oldest is 0) of {n}; expected none cleared": (
        "결과 {n}개 중 {got}번(가장 오래된 것이 0)을 비웠습니다. 하나도 비우지 않아야 합니다"),
    "it cleared results {got} (oldest is 0) of {n}; expected {want}": (
        "결과 {n}개 중 {got}번(가장 오래된 것이 0)을 비웠습니다. 기대값은 {want}입니다"),
    "it cleared none of the {n} results (oldest is 0); expected {want}": (
        "결과 {n}개 중 하나도 비우지 않았습니다(가장 오래된 것이 0). 기대값은 {want}입니다"),
    "clear_old_results(messages, keep={keep}) on {history}: {what}, with everything else "
    "unchanged": "{history}에서 clear_old_results(messages, keep={keep})를 호출한 결과: {what}. "
                 "나머지는 모두 그대로 두어야 합니다",
    "clear_old_results(messages, keep={keep}) on {history}, which has parallel calls: "
    "{what}": "병렬 호출이 있는 {history}에서 clear_old_results(messages, keep={keep})를 호출한 "
              "결과: {what}",
    "clear_old_results(messages, keep={keep}) on {history} changed the list it was given": (
        "{history}에서 clear_old_results(messages, keep={keep})가 입력으로 받은 리스트를 "
        "바꿨습니다"),
    # lesson 04: ex4.freed_tokens
    "freed_tokens(messages, {args}) should return an int number of tokens, got {type} {got}": (
        "freed_tokens(messages, {args})는 토큰 수를 int로 반환해야 합니다. 돌아온 것은 {type} "
        "{got}입니다"),
    "freed_tokens(messages, keep={keep}) on {history} is {got}; clearing frees exactly {want} "
    "tokens (tokens.count of the history before, minus after)": "{history}에서 freed_tokens("
                                                                "messages, keep={keep})의 값은 "
                                                                "{got}입니다. 비우기로 확보되는 "
                                                                "토큰은 정확히 {want}개입니다(비우기 "
                                                                "전 히스토리의 tokens.count에서 "
                                                                "비운 뒤의 값을 뺀 수)",
    "freed_tokens(messages, keep={keep}) on {history} is {got}; with {n} results and "
    "keep={k} nothing is cleared": "{history}에서 freed_tokens(messages, keep={keep})의 값은 "
                                   "{got}입니다. 결과가 {n}개이고 keep={k}이면 아무것도 비우지 "
                                   "않습니다",
    "freed_tokens(cleared, keep={keep}) on {history}, already cleared with the same keep, is "
    "{got}; clearing it again frees nothing": "같은 keep으로 이미 비운 {history}에서 "
                                              "freed_tokens(cleared, keep={keep})의 값은 "
                                              "{got}입니다. 다시 비워도 확보되는 것은 없습니다",
    "freed_tokens(messages, keep={keep}, clear_at_least={least}) on {history} is {got}; "
    "clearing would free {full} tokens, so the answer is {want} (skipped: less than "
    "clear_at_least)": "{history}에서 freed_tokens(messages, keep={keep}, clear_at_least="
                       "{least})의 값은 {got}입니다. 비우면 {full} 토큰이 확보되므로 답은 "
                       "{want}입니다(clear_at_least보다 적어서 건너뜁니다)",
    "freed_tokens(messages, keep={keep}, clear_at_least={least}) on {history} is {got}; "
    "clearing would free {full} tokens, so the answer is {want} (at least clear_at_least: it "
    "goes ahead)": "{history}에서 freed_tokens(messages, keep={keep}, clear_at_least={least})의 "
                   "값은 {got}입니다. 비우면 {full} 토큰이 확보되므로 답은 {want}입니다"
                   "(clear_at_least 이상이므로 비웁니다)",
    "freed_tokens(messages, keep={keep}) on {history} changed the list it was given": (
        "{history}에서 freed_tokens(messages, keep={keep})가 입력으로 받은 리스트를 바꿨습니다"),
    # lessons 05-09 details
    # ex5.should_compact
    "test history #{n} (meter ratio {ratio})": "테스트 히스토리 #{n}(미터 비율 {ratio})",
    "{where}: the calibrated size is {size}, trigger={trigger}, margin={margin}; {a} > {b} - {c} = "
    "{d}, so compact now (True). Waiting for the trigger itself leaves no room for the reply, "
    "the next tool result and the summary call": (
        "{where}: 보정된 크기는 {size}이고 trigger={trigger}, margin={margin}입니다. {a} > {b} - "
        "{c} = {d}이므로 지금 압축해야 합니다(True). 트리거에 닿을 때까지 기다리면 응답, 다음 "
        "도구 결과, 요약 호출이 들어갈 자리가 남지 않습니다"),
    "{where}: the calibrated size is {size}, trigger={trigger}, margin={margin}; {a} is not over "
    "{b} - {c} = {d}, so do not compact (False): every compaction is a paid call and a cache miss": (
        "{where}: 보정된 크기는 {size}이고 trigger={trigger}, margin={margin}입니다. {a:은} {b} "
        "- {c} = {d:을} 넘지 않으므로 압축하지 않아야 합니다(False): 압축할 때마다 요금을 "
        "내는 호출이 하나 더 나가고 캐시 미스가 납니다"),
    "{where}: characters / 4 says {raw} tokens, the calibrated meter says {size}; with "
    "trigger={trigger}, margin={margin} the answer is {want}, got {got}": (
        "{where}: 문자 수 / 4로는 {raw} 토큰, 보정된 미터로는 {size} 토큰입니다. "
        "trigger={trigger}, margin={margin}이면 답은 {want}인데 {got:을} 반환했습니다"),
    "should_compact should return True or False, got {got}": (
        "should_compact는 True나 False를 반환해야 합니다. 받은 값: {got}"),
    # ex5.safe_boundary
    # (the same as lessons 01-04's, which come first: kept so that these stand alone)
    "on test history #{n} ({m} messages, keep={keep})": (
        "테스트 히스토리 #{n}(메시지 {m}개, keep={keep})에서"),
    "on test history #{n} ({m} messages)": "테스트 히스토리 #{n}(메시지 {m}개)에서",
    "safe_boundary should return an index (an int), got {got}": (
        "safe_boundary는 인덱스(int)를 반환해야 합니다. 받은 값: {got}"),
    "safe_boundary {where} returned {cut}: an index from 0 to {n} was expected": (
        "safe_boundary가 {where} {cut:을} 반환했습니다: 0부터 {n}까지의 인덱스여야 합니다"),
    "safe_boundary {where} returned {cut}; the summary followed by messages[{start}:] gets the "
    "API's 400: {error}": (
        "safe_boundary가 {where} {cut:을} 반환했습니다. 요약 뒤에 messages[{start}:]를 붙이면 "
        "API가 400으로 거부합니다: \"{error}\""),
    "safe_boundary {where} returned {cut}, which keeps only {k} messages; the boundary may be at "
    "most {most}": (
        "safe_boundary가 {where} {cut:을} 반환했습니다. 그러면 메시지가 {k}개만 남습니다. "
        "경계는 최대 {most}여야 합니다"),
    "safe_boundary {where} returned {cut}; the closest boundary that splits no pair is {want}: "
    "everything before it is folded, so moving further back folds less than it could": (
        "safe_boundary가 {where} {cut:을} 반환했습니다. 쌍을 가르지 않는 가장 가까운 경계는 "
        "{want}입니다: 경계 앞은 모두 요약으로 접히므로, 더 오래된 쪽으로 옮기면 접을 수 있는 "
        "것보다 덜 접습니다"),
    "safe_boundary {where} changed the list it was given": (
        "safe_boundary가 {where} 받은 리스트를 바꿨습니다"),
    # ex5.structured_prompt
    "the prompt does not ask for: {sections}. A free-form 'summarize' lets the summarizer choose "
    "what to keep, and numbers go first": (
        "프롬프트가 다음 섹션을 요청하지 않습니다: {sections}. 형식 없이 'summarize'라고만 하면 "
        "무엇을 남길지 요약하는 쪽이 고르고, 숫자가 먼저 빠집니다"),
    "the prompt does not ask for the user's constraints verbatim (or word for word, or copied "
    "exactly as written); a paraphrased limit ('a reasonable budget') is a lost limit": (
        "프롬프트가 사용자의 제약을 원문 그대로 옮기라고 요청하지 않습니다(\"verbatim\", \"word "
        "for word\", \"copied exactly as written\" 같은 말로). 바꿔 말한 제약('a reasonable "
        "budget')은 잃어버린 제약입니다"),
    "summary_prompt() should return the prompt as a non-empty string, got {got}": (
        "summary_prompt()는 프롬프트를 비어 있지 않은 문자열로 반환해야 합니다. 받은 값: {got}"),
    "no compaction happened (a bug in the check)": (
        "압축이 한 번도 일어나지 않았습니다(검사의 버그)"),
    "with your prompt the agent {outcome}; the budget is at most $1,400 and the right choice is "
    "{best}. The last summary began: {summary}": (
        "여러분의 프롬프트로 에이전트는 {outcome}. 예산은 최대 $1,400이고 맞는 선택은 "
        "{best}입니다. 마지막 요약의 시작: {summary}"),
    "with your prompt the audit found {found}; the last summary began: {summary}": (
        "여러분의 프롬프트로 감사한 결과: {found}. 마지막 요약의 시작: {summary}"),
    # ex6.atomic_write
    "atomic_write(path, text) did not create the file": (
        "atomic_write(path, text)가 파일을 만들지 않았습니다"),
    "after atomic_write the file holds {got}, expected {want}": (
        "atomic_write 뒤 파일의 내용이 {got}입니다. 기대한 내용: {want}"),
    "atomic_write over an existing file should leave exactly the new text, as UTF-8; the file "
    "holds {got}": (
        "기존 파일 위에 atomic_write를 하면 새 텍스트만 UTF-8로 정확히 남아야 합니다. 파일의 내용: "
        "{got}"),
    "the simulated crash never fired: write the file with open(), os.fdopen(), Path.write_text() "
    "or os.write()": (
        "흉내 낸 크래시가 한 번도 일어나지 않았습니다: 파일은 open(), os.fdopen(), "
        "Path.write_text(), os.write() 가운데 하나로 쓰세요"),
    "after a crash half-way through the write, notes.md holds {n} characters ({start}...), not the "
    "old notes: writing in place (open(path, 'w')) empties the file first; write a temp file, "
    "then rename it over the notes": (
        "쓰는 도중 크래시가 난 뒤 notes.md에는 {n}자({start}...)가 있고, 이전 메모가 아닙니다: "
        "제자리에 쓰면(open(path, 'w')) 파일이 먼저 비워집니다. 임시 파일에 쓴 다음, 그 파일의 "
        "이름을 바꿔 메모 위에 덮으세요"),
    "atomic_write swallowed the crash; let the exception propagate so the caller knows the write "
    "failed": (
        "atomic_write가 크래시를 삼켰습니다. 쓰기가 실패했다는 것을 호출한 쪽이 알 수 있게 예외를 "
        "그대로 전달하세요"),
    "after a crash {where} the folder holds {left}; only notes.md should be there (remove the temp "
    "file when anything fails)": (
        "{where} 크래시가 난 뒤 폴더에 {left:이} 있습니다. notes.md만 있어야 합니다(무엇이든 "
        "실패하면 임시 파일을 지우세요)"),
    "after a crash {where} the old notes changed": (
        "{where} 크래시가 난 뒤 이전 메모가 바뀌었습니다"),
    "notes.md was written in place: no os.replace(tmp, path) (or os.rename) put a finished file "
    "there, so a crash can leave it half written": (
        "notes.md를 제자리에 썼습니다: 다 쓴 파일을 os.replace(tmp, path)(또는 os.rename)로 옮겨 "
        "놓지 않았으므로, 크래시가 나면 반만 쓰인 채로 남을 수 있습니다"),
    "the temp file was made outside the notes folder; os.replace can only rename atomically within "
    "one filesystem: make it with tempfile.mkstemp(dir=folder)": (
        "임시 파일을 메모 폴더 밖에 만들었습니다. os.replace는 한 파일 시스템 안에서만 원자적으로 "
        "이름을 바꿀 수 있습니다: tempfile.mkstemp(dir=folder)로 만드세요"),
    "after a successful write only notes.md, holding the new text, should be there": (
        "쓰기가 성공한 뒤에는 새 텍스트가 담긴 notes.md만 있어야 합니다"),
    # ex6.safe_path
    "safe_path(folder, {name}) should refuse with ValueError or PermissionError, not {error}": (
        "safe_path(folder, {name})는 ValueError나 PermissionError로 거부해야 합니다. 발생한 예외: "
        "\"{error}\""),
    "safe_path(folder, {name}) returned {got}; {why}, so it must raise ValueError or "
    "PermissionError": (
        "safe_path(folder, {name})가 {got:을} 반환했습니다. {why}: ValueError나 "
        "PermissionError를 발생시켜야 합니다"),
    "it is absolute": "절대 경로입니다",
    "it is absolute (names are relative, always)": "절대 경로입니다(이름은 언제나 상대 경로입니다)",
    "it climbs out with '..'": "'..'로 폴더 밖으로 올라갑니다",
    "it has a '..' part (refuse every '..')": "'..' 부분이 있습니다('..'는 모두 거부하세요)",
    "it holds a NUL byte": "NUL 바이트가 들어 있습니다",
    "it is empty": "빈 이름입니다",
    "'out' is a symlink to a folder outside": "'out'은 밖의 폴더를 가리키는 심볼릭 링크입니다",
    "'link.md' is a symlink to a file outside": (
        "'link.md'는 밖의 파일을 가리키는 심볼릭 링크입니다"),
    "'evil' is a symlink to the sibling folder notes-evil, outside": (
        "'evil'은 밖에 있는 형제 폴더 notes-evil을 가리키는 심볼릭 링크입니다"),
    "safe_path(folder, {name}) refused a good name: {error}": (
        "safe_path(folder, {name})가 괜찮은 이름을 거부했습니다: {error}"),
    "safe_path should return the path (a Path or str), got {type}": (
        "safe_path는 경로(Path나 str)를 반환해야 합니다. 받은 값의 타입: {type}"),
    "safe_path(folder, {name}) returned {got}, which is not the file {file} inside the folder": (
        "safe_path(folder, {name})가 {got:을} 반환했습니다. 폴더 안의 파일 {file:이} 아닙니다"),
    # ex6.resume_notes
    "resume_notes should return (checked, next_file), got {got}": (
        "resume_notes는 (checked, next_file)을 반환해야 합니다. 받은 값: {got}"),
    "checked should be a set of paths, got {type}": (
        "checked는 경로의 set이어야 합니다. 받은 값의 타입: {type}"),
    "{what}: checked is {got}, expected {want}, for the notes {notes}": (
        "{what}: checked가 {got}입니다. 기대한 값: {want}. 메모: {notes}"),
    "{what}: next_file is {got}, expected {want}": (
        "{what}: next_file이 {got}입니다. 기대한 값: {want}"),
    "checked is {got}, expected {want}: only 'Noted [k/n] PATH: ...' lines count, with the full "
    "path": (
        "checked가 {got}입니다. 기대한 값: {want}. 'Noted [k/n] PATH: ...' 줄만 세고, 경로는 전체 "
        "경로로 적으세요"),
    "with files {noted} of {n} noted": "파일 {n}개 가운데 {noted}번이 기록된 메모에서",
    "with the full-path plan form": "전체 경로로 쓴 계획 형식에서",
    "with the short plan form": "짧은 계획 형식에서",
    "for empty notes": "빈 메모에서",
    "for notes without a plan": "계획이 없는 메모에서",
    "when every planned file is noted": "계획된 파일이 모두 기록된 메모에서",
    "when a newer plan lists one more file": "더 최근 계획이 파일을 하나 더 나열하는 메모에서",
    "on the notes of the lesson's audit stopped after {steps} steps": (
        "레슨의 감사를 {steps}단계 뒤에 멈춘 메모에서"),
    # ex7.run_cost
    "run_cost should return a number of dollars, got {type} {got}": (
        "run_cost는 달러 금액(숫자)을 반환해야 합니다. 받은 값: {type} {got}"),
    "three steps without caching ({steps}) cost ${want} at $3 / $15 per million; got {got}": (
        "캐싱 없는 세 단계({steps})의 비용은 백만 토큰당 $3 / $15로 ${want}입니다. 받은 값: {got}"),
    "no steps cost nothing, got {got}": "단계가 없으면 비용은 0입니다. 받은 값: {got}",
    "a step of {steps}: 1,000 uncached tokens at $3 and 9,000 read from the cache at $0.30 per "
    "million make ${want}, got {got} (that bills every input token at the input price: the cache "
    "saved nothing)": (
        "단계 하나({steps}): 캐시되지 않은 1,000 토큰을 $3로, 캐시에서 읽은 9,000 토큰을 백만 "
        "토큰당 $0.30로 계산하면 ${want}입니다. 받은 값: {got}(모든 입력 토큰을 입력 가격으로 "
        "청구했습니다: 캐시로 아낀 것이 없습니다)"),
    "a step of {steps}: 1,000 uncached tokens at $3 and 9,000 read from the cache at $0.30 per "
    "million make ${want}, got {got} (that bills the cached tokens twice: input_tokens already "
    "includes them)": (
        "단계 하나({steps}): 캐시되지 않은 1,000 토큰을 $3로, 캐시에서 읽은 9,000 토큰을 백만 "
        "토큰당 $0.30로 계산하면 ${want}입니다. 받은 값: {got}(캐시된 토큰을 두 번 청구했습니다: "
        "input_tokens에 이미 들어 있습니다)"),
    "a step of {steps}: 1,000 uncached tokens at $3 and 9,000 read from the cache at $0.30 per "
    "million make ${want}, got {got}": (
        "단계 하나({steps}): 캐시되지 않은 1,000 토큰을 $3로, 캐시에서 읽은 9,000 토큰을 백만 "
        "토큰당 $0.30로 계산하면 ${want}입니다. 받은 값: {got}"),
    "two steps ({steps}) cost ${want}; got {got}. A cache write costs more than a plain input "
    "token, not less": (
        "두 단계({steps})의 비용은 ${want}입니다. 받은 값: {got}. 캐시 쓰기는 일반 입력 토큰보다 "
        "싸지 않고 더 비쌉니다"),
    "with prices {prices}, a step of {steps} costs ${want}; got {got}": (
        "가격이 {prices}일 때 단계 하나({steps})의 비용은 ${want}입니다. 받은 값: {got}"),
    "the audit run's {n} steps ({tokens} input tokens, {reads} of them read from the cache) cost "
    "${want}; got {got}": (
        "감사 실행의 {n}단계(입력 토큰 {tokens}개, 그중 캐시에서 읽은 토큰 {reads}개)의 비용은 "
        "${want}입니다. 받은 값: {got}"),
    # ex7.choose_strategy
    "choose_strategy should return a strategy's name (a str) or None, got {type} {got}": (
        "choose_strategy는 전략의 이름(str)이나 None을 반환해야 합니다. 받은 값: {type} {got}"),
    "within a 64,000-token peak, the cheapest run that succeeded (cache on) is 'server compact' "
    "($3.08); got 'cap': 'cap' is cheaper, but it overflowed the window and answered nothing": (
        "최대치 64,000 토큰 이내에서 성공한 가장 싼 실행(캐시 켬)은 'server compact'($3.08)입니다. "
        "받은 값: 'cap'. 'cap'이 더 싸지만 윈도우를 넘어 아무 답도 하지 못했습니다"),
    "within a 64,000-token peak, the cheapest run that succeeded (cache on) is 'server compact' "
    "($3.08); got {got}": (
        "최대치 64,000 토큰 이내에서 성공한 가장 싼 실행(캐시 켬)은 'server compact'($3.08)입니다. "
        "받은 값: {got}"),
    "within a 20,000-token peak, the cheapest run that succeeded is 'cap+clear+compact' ($7.09, "
    "peak 17,662); got {got} whose peak is over 20,000": (
        "최대치 20,000 토큰 이내에서 성공한 가장 싼 실행은 'cap+clear+compact'($7.09, 최대치 "
        "17,662)입니다. 받은 값: {got}, 최대치가 20,000을 넘습니다"),
    "within a 20,000-token peak, the cheapest run that succeeded is 'cap+clear+compact' ($7.09, "
    "peak 17,662); got {got}": (
        "최대치 20,000 토큰 이내에서 성공한 가장 싼 실행은 'cap+clear+compact'($7.09, 최대치 "
        "17,662)입니다. 받은 값: {got}"),
    "a peak exactly at the budget is within it: with max_peak=165,943 append-only qualifies and is "
    "cheaper; got {got}": (
        "예산과 정확히 같은 최대치는 예산 안입니다: max_peak=165,943이면 추가 전용(append-only)이 "
        "조건에 맞고 더 쌉니다. 받은 값: {got}"),
    "without prompt caching (cost_no_cache_usd) the cheapest run that succeeded within 64,000 "
    "tokens is 'server clear' ($8.58); got {got}": (
        "프롬프트 캐싱 없이(cost_no_cache_usd) 64,000 토큰 이내에서 성공한 가장 싼 실행은 'server "
        "clear'($8.58)입니다. 받은 값: {got}"),
    "cap+clear and cap+clear+compact measured the same (the compactor never fired): keep the one "
    "with fewer layers, the earlier row; got {got}": (
        "cap+clear와 cap+clear+compact의 측정값이 같습니다(압축기가 한 번도 동작하지 않았습니다): "
        "레이어가 더 적은 쪽, 즉 앞쪽 행을 택하세요. 받은 값: {got}"),
    "no run that succeeded has a peak within 4,000 tokens: return None, got {got}": (
        "최대치가 4,000 토큰 이내이면서 성공한 실행은 없습니다: None을 반환하세요. 받은 값: {got}"),
    # ex7.pipeline (the run's errors come from classroom/harness.py)
    "pipeline should return a dict with keys among {keys}; got {type}": (
        "pipeline은 {keys} 가운데의 키로 된 dict를 반환해야 합니다. 받은 값의 타입: {type}"),
    "unknown key(s) {unknown}: use {keys}": "알 수 없는 키 {unknown}: {keys}를 쓰세요",
    "'context' should be a list of strategies (callables: messages -> messages), got {got}": (
        "'context'는 전략(messages -> messages인 호출 가능한 객체)의 리스트여야 합니다. 받은 값: "
        "{got}"),
    "a Compactor uses another client: build it with the `client` pipeline receives, so that its "
    "summary calls are counted too": (
        "Compactor가 다른 클라이언트를 씁니다: pipeline이 받은 `client`로 만드세요. 그래야 요약 "
        "호출도 함께 셉니다"),
    "'cache' should be True, False or a breakpoint placer (a callable: messages -> messages with "
    "cache_control), got {got}": (
        "'cache'는 True, False, 또는 중단점을 놓는 함수(messages -> cache_control이 붙은 "
        "messages인 호출 가능한 객체)여야 합니다. 받은 값: {got}"),
    "'{key}' should be an agentlib.tools.Toolbox, got {type}": (
        "'{key}'는 agentlib.tools.Toolbox여야 합니다. 받은 값의 타입: {type}"),
    "the run (one of your strategies or tools)": "실행(여러분의 전략이나 도구 가운데 하나)",
    "the run reported {type}, not a dict": "실행이 dict가 아니라 {type:을} 알려 왔습니다",
    "append-only should solve the check's audit (a bug in the check)": (
        "추가 전용(append-only)은 검사의 감사를 풀어야 합니다(검사의 버그)"),
    "the model refused a request after {n} requests: {error}": (
        "요청 {n}번 뒤 모델이 요청을 거부했습니다: \"{error}\""),
    "no answer after {n} requests: is the agent re-reading results that were cleared or cut too "
    "soon?": (
        "요청 {n}번 뒤에도 답이 없습니다: 너무 일찍 비우거나 자른 결과를 에이전트가 다시 읽고 있지 "
        "않은지 확인하세요"),
    "the run stopped after {n} requests without an answer: {stopped}": (
        "실행이 요청 {n}번 뒤 답 없이 멈췄습니다: \"{stopped}\""),
    "the answer scored {score}, not full marks": "답의 점수는 {score}로, 만점이 아닙니다",
    "there was no answer": "답이 없었습니다",
    "the largest request was {peak} tokens and then one was refused; the budget is {budget}": (
        "가장 큰 요청은 {peak} 토큰이었고 그 뒤 요청 하나가 거부됐습니다. 예산은 {budget} "
        "토큰입니다"),
    "the largest request was {peak} tokens; the budget is {budget}": (
        "가장 큰 요청은 {peak} 토큰이었습니다. 예산은 {budget} 토큰입니다"),
    "the run did not answer ({stopped}): its token count says nothing yet": (
        "실행이 답하지 못했습니다({stopped}): 아직 토큰 수로는 알 수 있는 것이 없습니다"),
    "the run did not answer ({stopped}): its bill says nothing yet": (
        "실행이 답하지 못했습니다({stopped}): 아직 청구 금액으로는 알 수 있는 것이 없습니다"),
    "{calls} calls sent {tokens} input tokens, {share} of append-only's {base}; the budget is "
    "{budget}": (
        "호출 {calls}번이 입력 토큰 {tokens}개를 보냈습니다. 추가 전용의 {base}개 대비 "
        "{share}입니다. 예산은 {budget}입니다"),
    "{calls} calls cost ${cost} with prompt caching, {share} of append-only's ${base}; the budget "
    "is {budget}": (
        "프롬프트 캐싱을 켠 호출 {calls}번의 비용은 ${cost}입니다. 추가 전용의 ${base} 대비 "
        "{share}입니다. 예산은 {budget}입니다"),
    "audit({files}) in a {window}-token window: no run ({error})": (
        "{window} 토큰 윈도우의 audit({files}): 실행하지 못했습니다({error})"),
    "audit({files}) in a {window}-token window: {ended} after {requests} requests (+{summaries} "
    "summary calls); {score}; peak {peak} tokens (budget {peak_budget}); input {tokens} = "
    "{share} of append-only's {base} (budget {share_budget}); ${cost} cached = {cost_share} of "
    "append-only's ${base_cost} (budget {cost_budget})": (
        "{window} 토큰 윈도우의 audit({files}): 요청 {requests}번(+요약 호출 {summaries}번) 뒤 "
        "{ended}; {score}; 최대치 {peak} 토큰(예산 {peak_budget}); 입력 {tokens} 토큰 = 추가 "
        "전용 {base} 토큰의 {share}(예산 {share_budget}); 캐시 적용 ${cost} = 추가 전용 "
        "${base_cost}의 {cost_share}(예산 {cost_budget})"),
    # ex8.fit_result
    "fit_result should return a str, got {type}": (
        "fit_result는 str을 반환해야 합니다. 받은 값의 타입: {type}"),
    "{text} takes {n} tokens, within max_tokens={budget}: return it as it is; got {got}": (
        "{text:은} {n} 토큰으로 max_tokens={budget} 안에 들어갑니다: 그대로 반환하세요. 받은 "
        "값: {got}"),
    "fit_result({text}, {budget}) returned {n} tokens, over the budget: count the notice too: {got}": (
        "fit_result({text}, {budget})가 {n} 토큰을 반환해 예산을 넘었습니다: 안내 줄도 세세요: "
        "{got}"),
    "fit_result({text}, {budget}) should keep whole lines from the start; got {got}": (
        "fit_result({text}, {budget})는 처음부터 온전한 줄을 남겨야 합니다. 받은 값: {got}"),
    "after {k} whole lines the last line should be the notice {want}; got {got}": (
        "온전한 줄 {k}개 뒤의 마지막 줄은 안내 줄 {want}이어야 합니다. 받은 값: {got}"),
    "fit_result({text}, {budget}) kept {kept} lines; {best} fit with the notice: {want}": (
        "fit_result({text}, {budget})가 {kept}줄을 남겼습니다. 안내 줄과 함께 {best}줄이 "
        "들어갑니다: {want}"),
    "fit_result({text}, {budget}) gave {got}; agentlib.delegate.fit gives {want}": (
        "fit_result({text}, {budget})의 결과는 {got}이고, agentlib.delegate.fit의 결과는 "
        "{want}입니다"),
    # ex8.wall_clock_steps
    "wall_clock_steps should return an int, got {type} {got}": (
        "wall_clock_steps는 int를 반환해야 합니다. 받은 값: {type} {got}"),
    "4 requests, no delegate call: 4 steps, got {got}": (
        "요청 4번, delegate 호출 없음: 4단계입니다. 받은 값: {got}"),
    "a lead of 3 requests whose second starts sub-runs of 5, 9 and 7 requests side by side: 3 + 9 "
    "= 12 steps, got {got} (that adds them up, as if they ran one after another)": (
        "리드가 요청 3번을 보내고 그 두 번째 요청이 요청 5번, 9번, 7번짜리 서브 실행을 나란히 "
        "시작합니다: 3 + 9 = 12단계입니다. 받은 값: {got}(서브 실행들이 하나씩 차례로 실행된 "
        "것처럼 모두 더했습니다)"),
    "a lead of 3 requests whose second starts sub-runs of 5, 9 and 7 requests side by side: 3 + 9 "
    "= 12 steps, got {got}": (
        "리드가 요청 3번을 보내고 그 두 번째 요청이 요청 5번, 9번, 7번짜리 서브 실행을 나란히 "
        "시작합니다: 3 + 9 = 12단계입니다. 받은 값: {got}"),
    "a lead of 4 requests: the first (with a list_files call too) starts a sub-run of 4 requests, "
    "the second one of 6, the third two of 2 and 8 side by side: {want} steps, got {got}": (
        "리드가 요청 4번을 보냅니다: 첫 번째(list_files 호출도 함께)는 요청 4번짜리 서브 실행을, "
        "두 번째는 6번짜리를, 세 번째는 2번과 8번짜리 둘을 나란히 시작합니다: {want}단계입니다. "
        "받은 값: {got}"),
    "a lead of {n} requests with sub-runs of {subs} requests: {want} steps, got {got}": (
        "리드의 요청 {n}번, 서브 실행들의 요청 수 {subs}: {want}단계입니다. 받은 값: {got}"),
    # ex8.team_bill
    "team_bill should return a dict with requests, input_tokens and cost_usd; got {got}": (
        "team_bill은 requests, input_tokens, cost_usd가 든 dict를 반환해야 합니다. 받은 값: {got}"),
    "a lead of 3 requests and sub-runs of 5 and 2, 1,000 input and 50 output tokens each: {bill}; "
    "got {got}": (
        "리드의 요청 3번과 요청 5번, 2번짜리 서브 실행, 요청마다 입력 1,000 토큰과 출력 50 토큰: "
        "{bill}입니다. 받은 값: {got}"),
    "with no sub-runs the bill is the lead's own; got {got}": (
        "서브 실행이 없으면 청구 금액은 리드의 것뿐입니다. 받은 값: {got}"),
    "two cached runs: {bill}; got {got}. input_tokens already includes the cached tokens": (
        "캐시를 쓴 실행 둘: {bill}입니다. 받은 값: {got}. input_tokens에는 캐시된 토큰이 이미 들어 "
        "있습니다"),
    "with prices {prices}, the bill is {bill}; got {got}": (
        "가격이 {prices}일 때 청구 금액은 {bill}입니다. 받은 값: {got}"),
    "the team (a lead and {n} sub-agents): {bill}; got {got}": (
        "팀(리드 하나와 서브에이전트 {n}개): {bill}입니다. 받은 값: {got}"),
    "the check's team failed (a bug)": "검사의 팀이 실패했습니다(버그)",
    # ex9.definition_share
    "definition_share should return a number, got {type}": (
        "definition_share는 숫자를 반환해야 합니다. 받은 값의 타입: {type}"),
    "definition_share({n} tools, {request}) returned {got}; the definitions count {d} tokens, so "
    "the share is {want}": (
        "definition_share(도구 {n}개, {request})가 {got:을} 반환했습니다. 정의는 {d} 토큰이므로 "
        "비율은 {want}입니다"),
    "definition_share([], 500) returned {got}; with no tools it is 0": (
        "definition_share([], 500)가 {got:을} 반환했습니다. 도구가 없으면 0입니다"),
    "definition_share changed the tools it was given": "definition_share가 받은 도구를 바꿨습니다",
    # ex9.choose_deferred
    "choose_deferred should return a list, got {type}": (
        "choose_deferred는 리스트를 반환해야 합니다. 받은 값의 타입: {type}"),
    "choose_deferred should return every tool, in the same order": (
        "choose_deferred는 모든 도구를 같은 순서로 반환해야 합니다"),
    "{name} is in keep_loaded but was deferred: the tools every task needs stay loaded": (
        "{name:은} keep_loaded에 있는데 지연됐습니다: 모든 작업에 필요한 도구는 로드된 채로 "
        "둡니다"),
    "{name} is not in keep_loaded, so it should carry defer_loading: True": (
        "{name:은} keep_loaded에 없으므로 defer_loading: True가 있어야 합니다"),
    "{name}: only defer_loading may change; its other fields should stay": (
        "{name}: defer_loading만 바뀔 수 있습니다. 다른 필드는 그대로 두세요"),
    "the API refused the tools choose_deferred returned: {error}": (
        "choose_deferred가 반환한 도구를 API가 거부했습니다: \"{error}\""),
    "choose_deferred changed the list or the tools it was given": (
        "choose_deferred가 받은 리스트나 도구를 바꿨습니다"),
    # ex9.search_tools
    "search_tools({query}, ...) should return a list of blocks, got {type}": (
        "search_tools({query}, ...)는 블록의 리스트를 반환해야 합니다. 받은 값의 타입: {type}"),
    "search_tools({query}, top={top}) returned {n} blocks": (
        "search_tools({query}, top={top})가 블록 {n}개를 반환했습니다"),
    "search_tools({query}) returned {block}; each item should be {'type': 'tool_reference', "
    "'tool_name': ...}": (
        "search_tools({query})가 {block:을} 반환했습니다. 항목마다 {{'type': 'tool_reference', "
        "'tool_name': ...}}이어야 합니다"),
    "search_tools({query}) referenced {name}, which is not a client tool in `tools` (the API "
    "answers 400 for a reference with no definition)": (
        "search_tools({query})가 {name:을} 참조했는데, `tools`에 있는 클라이언트 도구가 "
        "아닙니다(정의가 없는 참조에 API는 400으로 답합니다)"),
    "search_tools({query}, top=3) returned {found}; {name} should be among them": (
        "search_tools({query}, top=3)가 {found:을} 반환했습니다. 그 안에 {name:이} 있어야 "
        "합니다"),
    "the agent did not answer right: {stopped}; {score}; its searches: {searches}": (
        "에이전트가 맞게 답하지 못했습니다(실행 결과: {stopped}). {score}. 에이전트의 검색: "
        "{searches}"),
    # inputs drawn at grading time (issue 39: the class grader's secret, classroom/grading.py
    # `drawn`): the details of the cases a learner's kernel never draws
    "{n} requests of {tokens} input tokens in all at ${price} per million cost ${want}, got "
    "{got}": (
        "입력 토큰이 모두 {tokens}개인 요청 {n}번은 백만 토큰당 ${price}이면 ${want}인데, 돌아온 "
        "값은 {got}입니다"),
    "{m} million input tokens at ${price} per million cost ${cost}, got {got}": (
        "입력 토큰 {m}백만 개는 백만 토큰당 ${price}이면 ${cost}인데, 돌아온 값은 {got}입니다"),
    "{tokens} output tokens at ${price} per million cost ${want}, got {got}": (
        "출력 토큰 {tokens}개는 백만 토큰당 ${price}이면 ${want}인데, 돌아온 값은 {got}입니다"),
    "{i} input at ${pi} plus {o} output at ${po} is ${want}, got {got}": (
        "입력 {i} 토큰(백만 토큰당 ${pi})과 출력 {o} 토큰(백만 토큰당 ${po})은 ${want}인데, "
        "돌아온 값은 {got}입니다"),
    "first_overflow({args}) should be {want} (a step exactly as long as the window fits), got "
    "{got}": (
        "first_overflow({args})의 기대값은 {want}, 돌아온 값은 {got}입니다(윈도우와 길이가 꼭 "
        "같은 단계는 들어갑니다)"),
    "first_overflow({args}) should be {want}, got {got}": (
        "first_overflow({args})의 기대값은 {want}, 돌아온 값은 {got}입니다"),
    "on other notes": "다른 메모에서",
    "with another plan": "다른 계획으로",
    "with two plans": "계획이 둘일 때",
    "with prices {prices}, the steps ({steps}) cost ${want}; got {got}": (
        "가격이 {prices}일 때 단계들({steps})의 비용은 ${want}입니다. 받은 값: {got}"),
    "of {n} runs, with max_peak={peak} and cached={cached}, the cheapest that succeeded within "
    "the budget is {want}; got {got}": (
        "실행 {n}개 중 max_peak={peak}, cached={cached}일 때 예산 안에서 성공한 가장 싼 전략은 "
        "{want}입니다. 받은 값: {got}"),
    "the run ended without one request to the model: the check's own model, which counts them, "
    "received none": (
        "실행이 모델에 요청을 한 번도 보내지 않고 끝났습니다: 요청을 세는 검사의 모델이 하나도 "
        "받지 못했습니다"),
    "a lead and {n} sub-runs at prices {prices}: the bill is {bill}; got {got}": (
        "가격이 {prices}일 때 리드 하나와 서브 실행 {n}개의 청구 금액은 {bill}입니다. 받은 값: "
        "{got}"),
    # pieces of the details above (last: the first template that matches is used)
    "chose {model} ({price}, {ram} GB)": "{model:을} 골랐습니다({price}, {ram} GB)",
    "no known model named": "아는 모델의 이름을 하나도 대지 않았습니다",
    "{hits} of {n} found, {wrong} wrong": "{n}개 중 {hits}개 찾음, 틀림 {wrong}개",
    "mid-write": "쓰는 도중",
    "at the rename": "이름을 바꿀 때",
    "answered": "답함",
    "no answer": "답 없음",
    "no answer to score": "채점할 답 없음",
    "{requests} requests, {tokens} input tokens, ${cost}": (
        "요청 {requests}번, 입력 토큰 {tokens}개, ${cost}"),
    "error: {error}": "오류: \"{error}\"",
    "cut: {reason}": "잘림: {reason}",
    "{right} of 3 right ({which}); truth service {service}, deployment {deployment}, oncall "
    "{oncall}": (
        "3개 중 {right}개 맞음({which}). 정답: service {service}, deployment {deployment}, oncall "
        "{oncall}"),
    "none": "없음",
}

CHECKS_KO: dict[tuple[str, str], tuple[str, str]] = {
    ("ex1.agent_loop", "returns (history, input_tokens), one count per request"): (
        "`(history, input_tokens)`를 반환하고, 요청마다 개수를 하나씩 기록한다",
        "매 턴마다 `messages` 리스트 전체로 create(...)를 호출하고, 응답을 어시스턴트 메시지로 "
        "추가하세요. stop_reason == 'tool_use'가 아니면 멈추고, 그렇다면 "
        "workload.toolbox.run_all(reply)를 추가하세요. 레슨 01의 '루프를 직접 작성하기' 절을 "
        "보세요",
    ),
    ("ex1.agent_loop", "re-sends the whole history on every request"): (
        "요청마다 히스토리 전체를 다시 보낸다",
        "모델은 상태를 기억하지 않습니다: 마지막 메시지가 아니라 messages=history(전체)를 넘기세요",
    ),
    ("ex1.agent_loop", "keeps every reply and tool result in the history"): (
        "모든 응답과 도구 결과를 히스토리에 남긴다",
        "어시스턴트 응답을 추가한 다음, tool_result 블록들을 담은 사용자 메시지를 추가하세요",
    ),
    ("ex1.agent_loop", "stops when the model stops asking for tools, with the answer"): (
        "모델이 더 이상 도구를 요청하지 않으면 답을 남기고 멈춘다",
        "response.stop_reason != 'tool_use'이면 break하세요. 마지막 메시지가 답입니다. 그리고 "
        "요청은 절대 max_steps번보다 많이 보내지 마세요",
    ),
    ("ex1.estimate_tokens", "rounds up: 5 characters are 2 tokens"): (
        "올림한다: 5자는 2 토큰이다",
        "math.ceil(len(text) / 4): str의 len()은 문자 수를 셉니다",
    ),
    ("ex1.estimate_tokens", "exact multiples of 4 do not round up; empty is 0"): (
        "4의 배수는 올림하지 않고, 빈 문자열은 0이다",
        "math.ceil(len(text) / 4): str의 len()은 문자 수를 셉니다",
    ),
    ("ex1.estimate_tokens", "counts characters, not UTF-8 bytes"): (
        "UTF-8 바이트가 아니라 문자를 센다",
        "len(text.encode())가 아니라 len(text)를 쓰세요: '안녕하세요'는 5문자, 15바이트입니다",
    ),
    ("ex1.estimate_tokens", "agrees with agentlib.tokens.estimate_text on many lengths"): (
        "여러 길이에서 agentlib.tokens.estimate_text와 일치한다",
        "math.ceil(len(text) / 4): str의 len()은 문자 수를 셉니다",
    ),
    ("ex1.session_cost", "bills every request for everything it sent"): (
        "요청마다 보낸 모든 것을 청구한다",
        "각 요청은 가장 최근 메시지만이 아니라 입력 전체에 대해 청구됩니다",
    ),
    ("ex1.session_cost", "prices are per million tokens"): (
        "가격을 백만 토큰당으로 계산한다",
        "모든 요청의 입력 토큰에 input_price를 곱한 값과 출력 토큰에 output_price를 곱한 값을 "
        "더해 1,000,000으로 나누세요",
    ),
    ("ex1.session_cost", "output tokens are billed at the output price"): (
        "출력 토큰은 출력 가격으로 청구한다",
        "모든 요청의 입력 토큰에 input_price를 곱한 값과 출력 토큰에 output_price를 곱한 값을 "
        "더해 1,000,000으로 나누세요",
    ),
    ("ex1.session_cost", "uses the prices it is given; an empty session costs 0"): (
        "주어진 가격을 쓰고, 빈 세션의 비용은 0이다",
        "고정된 숫자가 아니라 input_price와 output_price 인자를 쓰세요",
    ),
    ("ex1.first_overflow", "finds the index of the first step that does not fit"): (
        "들어가지 않는 첫 단계의 인덱스를 찾는다",
        "input + max_tokens > window(엄격히 큼)인 첫 단계의 인덱스를 반환하고, 없으면 None을 "
        "반환하세요",
    ),
    ("ex1.first_overflow", "a request exactly as long as the window still fits"): (
        "윈도우와 정확히 같은 길이의 요청은 아직 들어간다",
        "API는 input > window일 때만 거부합니다. 응답을 끝까지 받으려면 input + max_tokens <= "
        "window여야 합니다",
    ),
    ("ex1.first_overflow", "reserves room for max_tokens"): (
        "max_tokens를 위한 공간을 남겨 둔다",
        "응답을 끝까지 받으려면 input + max_tokens <= window여야 합니다(넘으면 응답이 잘립니다)",
    ),
    ("ex1.first_overflow", "returns None when every step fits (not -1, not False)"): (
        "모든 단계가 들어가면 None을 반환한다(-1도, False도 아니다)",
        "루프가 끝난 뒤 None을 반환하세요",
    ),
    ("ex1.first_overflow", "predicts where the lesson's audit(12) run fails"): (
        "레슨의 audit(12) 실행이 실패하는 지점을 예측한다",
        "input + max_tokens > window(엄격히 큼)인 첫 단계의 인덱스를 반환하고, 없으면 None을 "
        "반환하세요",
    ),
    ("ex2.find_split", "finds the orphan a naive cut leaves at the top"): (
        "순진하게 잘랐을 때 맨 앞에 남는 고아 결과를 찾는다",
        "각 메시지마다 바로 앞 메시지의 tool_use id들을 모으세요. 그 밖의 id를 가리키는 "
        "tool_result가 끊어진 지점입니다",
    ),
    ("ex2.find_split", "returns None when no pair is split"): (
        "끊어진 쌍이 없으면 None을 반환한다",
        "모든 메시지를 살펴본 뒤 None(0도, False도 아님)을 반환하세요",
    ),
    ("ex2.find_split", "finds a split in the middle of a history"): (
        "히스토리 중간에서 끊어진 지점을 찾는다",
        "각 메시지마다 바로 앞 메시지의 tool_use id들을 모으세요. 그 밖의 id를 가리키는 "
        "tool_result가 끊어진 지점입니다. 첫 메시지만이 아니라 모든 메시지를 살펴보고, 그보다 "
        "앞의 메시지가 아니라 바로 앞 메시지만 보세요",
    ),
    ("ex2.safe_truncate", "every result is a history the API accepts"): (
        "반환하는 히스토리는 모두 API가 받아들인다",
        "len(messages) - keep에서 시작하세요. 그 위치의 메시지가 tool_result로 시작하는 동안 "
        "시작점을 더 오래된 쪽으로 한 메시지씩 옮기세요",
    ),
    ("ex2.safe_truncate", "keeps the newest messages, in order"): (
        "가장 최근 메시지들을 순서대로 남긴다",
        "끝에서부터 자른 슬라이스 messages[start:]를 반환하세요",
    ),
    ("ex2.safe_truncate", "cuts as close to keep as a whole pair allows"): (
        "온전한 쌍이 허용하는 한 keep에 최대한 가깝게 자른다",
        "자른 부분이 tool_result로 시작하는 동안에만, 자르는 지점을 더 오래된 쪽으로 한 메시지씩 "
        "옮기세요",
    ),
    ("ex2.safe_truncate", "does not change its input"): (
        "입력을 바꾸지 않는다",
        "messages에서 지우지 말고 새 리스트를 만드세요(슬라이스도 새 리스트입니다)",
    ),
    ("ex2.pin_task", "the task stays the first message"): (
        "과제가 첫 메시지로 남는다",
        "messages[0]을 남기고, 그다음 (무언가를 버렸다면) 선택적인 표시 메시지를, 그다음 "
        "messages[1:]을 쌍을 끊지 않고 자른 결과를 두세요",
    ),
    ("ex2.pin_task", "every result is a history the API accepts"): (
        "반환하는 히스토리는 모두 API가 받아들인다",
        "과제 뒤의 부분은 [-keep:]이 아니라 쌍을 지키는 여러분의 규칙으로 자르세요",
    ),
    ("ex2.pin_task", "after the task: an optional marker, then the newest messages"): (
        "과제 뒤에는 선택적인 표시 메시지, 그다음 가장 최근 메시지들이 온다",
        "messages[0]을 남기고, 그다음 (무언가를 버렸다면) 선택적인 표시 메시지를, 그다음 "
        "messages[1:]을 쌍을 끊지 않고 자른 결과를 두세요. 버릴 것이 없으면 히스토리를 그대로 "
        "반환하세요",
    ),
    ("ex2.pin_task", "does not change its input"): (
        "입력을 바꾸지 않는다",
        "messages를 고치지 말고 새 리스트를 만드세요",
    ),
    ("ex3.cap_text", "returns a text that fits unchanged"): (
        "들어가는 텍스트는 그대로 반환한다",
        "len(text) <= max_chars이면 그대로 반환하세요. 그렇지 않으면 keep = max_chars - "
        "len(notice)로 두고 text[:keep] + notice를 반환하세요. 여기서 notice = f'\\n[truncated: "
        "{len(text) - keep} more characters not shown; {more}]'입니다",
    ),
    ("ex3.cap_text", "a cut text ends with a notice, never silently"): (
        "잘린 텍스트는 조용히 끝나지 않고 안내문으로 끝난다",
        "len(text) <= max_chars이면 그대로 반환하세요. 그렇지 않으면 keep = max_chars - "
        "len(notice)로 두고 text[:keep] + notice를 반환하세요. 여기서 notice = f'\\n[truncated: "
        "{len(text) - keep} more characters not shown; {more}]'입니다",
    ),
    ("ex3.cap_text", "the whole result, notice included, fits the budget"): (
        "안내문을 포함한 결과 전체가 예산에 들어간다",
        "안내문도 max_chars에 포함됩니다: 텍스트를 max_chars가 아니라 max_chars에서 안내문 길이를 "
        "뺀 만큼으로 자르세요",
    ),
    ("ex3.cap_text", "the notice counts the characters left out"): (
        "안내문이 빠진 문자 수를 센다",
        "N은 len(text)에서 남긴 문자 수를 뺀 값이고, 남긴 부분은 text[:keep]입니다",
    ),
    ("ex3.cap_text", "keeps as much of the text as fits"): (
        "들어가는 만큼 텍스트를 최대한 남긴다",
        "안내문은 자기 길이만큼만 차지합니다: 텍스트를 max_chars - len(notice)자 남기세요",
    ),
    ("ex3.page_notice", "is one line in the notice format the model reads"): (
        "모델이 읽는 안내문 형식의 한 줄을 반환한다",
        "end = offset + shown으로 두고, end >= total이면 ''를, 아니면 f'[truncated: lines {offset "
        "+ 1}-{end} of {total} shown; {total - end} more lines not shown; continue with "
        "read_file(path={json.dumps(path, ensure_ascii=False)}, offset={end})]'를 반환하세요",
    ),
    ("ex3.page_notice", "counts lines from 1 and says how many remain"): (
        "줄을 1부터 세고 몇 줄이 남았는지 알린다",
        "offset+1번째 줄부터 offset+shown번째 줄까지이며(1부터 세고 양 끝 포함), total - (offset "
        "+ shown)줄이 남습니다",
    ),
    ("ex3.page_notice", "names the next offset: the first line not shown"): (
        "다음 오프셋, 곧 보여 주지 않은 첫 줄을 알린다",
        "오프셋은 0부터 세므로 다음 오프셋은 offset + shown입니다(shown도, offset + shown + 1도 "
        "아닙니다)",
    ),
    ("ex3.page_notice", "says nothing when nothing is left"): (
        "남은 것이 없으면 아무것도 알리지 않는다",
        "offset + shown >= total이면 ''를 반환하세요(안내문이 있으면 에이전트가 파일 끝을 넘어 "
        "읽으려 합니다)",
    ),
    ("ex3.page_notice", "an agent following the notices reads the file exactly once"): (
        "안내문을 따라가는 에이전트가 파일을 정확히 한 번 읽는다",
        "end = offset + shown으로 두고, end >= total이면 ''를, 아니면 f'[truncated: lines {offset "
        "+ 1}-{end} of {total} shown; {total - end} more lines not shown; continue with "
        "read_file(path={json.dumps(path, ensure_ascii=False)}, offset={end})]'를 반환하세요",
    ),
    ("ex3.page_notice", "writes the path so that any path reads back"): (
        "어떤 경로든 다시 읽어 낼 수 있게 경로를 쓴다",
        "json.dumps(path, ensure_ascii=False)가 경로를 따옴표로 감싸고 이스케이프합니다",
    ),
    ("ex3.capped_tool", "the model sees the same tool: name, description, parameters"): (
        "모델에게 이름, 설명, 매개변수가 같은 도구가 보인다",
        "래퍼를 @functools.wraps(tool)로 데코레이트하세요. Toolbox는 래퍼에서 이름, docstring, "
        "시그니처를 읽습니다",
    ),
    ("ex3.capped_tool", "passes every argument through, short results unchanged"): (
        "모든 인자를 그대로 넘기고, 짧은 결과는 그대로 둔다",
        "래퍼가 받은 것 그대로 tool(*args, **kwargs)를 호출하세요",
    ),
    ("ex3.capped_tool", "cuts a long result to the budget and says so"): (
        "긴 결과를 예산에 맞게 자르고 잘랐다고 알린다",
        "도구의 출력을 반환하기 전에 cap_text(연습 문제 1)에 통과시키세요",
    ),
    ("ex3.capped_tool", "caps the text of any result, in a Toolbox too"): (
        "어떤 결과든 텍스트로 바꿔 상한을 적용하며, Toolbox 안에서도 그렇다",
        "자르기 전에 str(...)로 결과를 텍스트로 바꾸세요",
    ),
    ("ex3.capped_tool", "calls the tool once per call"): (
        "호출 한 번에 도구를 한 번만 호출한다",
        "도구를 한 번 호출해 그 출력을 변수에 담은 다음, 그것을 자르세요",
    ),
    ("ex4.empty_not_delete", "the history stays valid: the block is emptied, not deleted"): (
        "히스토리가 유효하게 남는다: 블록을 삭제하지 않고 비운다",
        "tool_use가 남아 있는 동안 tool_result가 사라지면 안 됩니다(그것이 400 오류입니다): "
        "블록은 그대로 두고 content만 바꾸세요",
    ),
    ("ex4.empty_not_delete", "the result keeps its block and id; its content is the placeholder"): (
        "결과는 블록과 tool_use_id를 유지하고, 내용은 자리표시자가 된다",
        "리스트와, 바꿀 메시지 하나를 복사하세요. 그 메시지 안에서 블록을 {**block, 'content': "
        "placeholder}로 바꾸세요: 타입도 tool_use_id도 그대로입니다",
    ),
    ("ex4.empty_not_delete", "every other message and block is unchanged"): (
        "다른 메시지와 블록은 모두 그대로다",
        "블록 하나만 바꾸세요: tool_use_id가 일치하는 tool_result입니다",
    ),
    ("ex4.empty_not_delete", "does not change its input"): (
        "입력을 바꾸지 않는다",
        "주어진 딕셔너리에 값을 대입하지 말고 새 딕셔너리({**message, 'content': new_list})를 "
        "만드세요",
    ),
    ("ex4.clear_old_results", "every result is a history the API accepts"): (
        "반환하는 히스토리는 모두 API가 받아들인다",
        "오래된 결과는 비우세요(content를 자리표시자로). 블록이나 메시지는 절대 삭제하지 마세요",
    ),
    ("ex4.clear_old_results", "clears the oldest results and keeps the newest `keep`"): (
        "오래된 결과를 비우고 가장 최근 `keep`개는 남긴다",
        "모든 tool_result의 tool_use_id를 오래된 것부터 모으세요. 그중 마지막 `keep`개를 뺀 "
        "나머지를 모두 비우세요(ids[:-keep]이 아니라 ids[:len(ids) - keep]. keep=0이면 "
        "ids[:-keep]은 비어 있습니다)",
    ),
    ("ex4.clear_old_results", "keep counts tool results, not messages (parallel calls)"): (
        "keep은 메시지가 아니라 도구 결과를 센다(병렬 호출)",
        "메시지 하나가 여러 병렬 호출에 응답할 수 있습니다: tool_result 블록을 세세요",
    ),
    ("ex4.clear_old_results", "does not change its input"): (
        "입력을 바꾸지 않는다",
        "새 메시지들로 이루어진 새 리스트를 반환하세요. 주어진 메시지에 절대 값을 대입하지 마세요",
    ),
    ("ex4.freed_tokens", "counts the tokens a clearing frees: before minus after"): (
        "비우기로 확보되는 토큰을 센다: 비우기 전에서 비운 뒤를 뺀다",
        "tokens.count(messages) - tokens.count(clear_old_results(messages, keep)): 정확한 토큰 "
        "수로 전에서 후를 빼므로, 자리표시자 자체의 토큰도 셉니다",
    ),
    ("ex4.freed_tokens", "nothing to clear frees 0, also when results were cleared before"): (
        "비울 것이 없으면 0을 확보하며, 이미 비운 결과가 있을 때도 그렇다",
        "이미 자리표시자를 담은 결과는 두 번째에는 아무것도 확보하지 않습니다",
    ),
    (
        "ex4.freed_tokens",
        "returns 0 when less than clear_at_least would be freed; exactly clear_at_least is enough",
    ): (
        "확보량이 clear_at_least보다 적으면 0을 반환하고, 정확히 clear_at_least면 충분하다",
        "다음처럼 처리하세요: if clear_at_least is not None and freed < clear_at_least: return 0",
    ),
    ("ex4.freed_tokens", "does not change its input"): (
        "입력을 바꾸지 않는다",
        "비운 복사본에서 세세요. 주어진 히스토리는 절대 고치지 마세요",
    ),
    ("ex5.should_compact", "compacts inside the margin, before the trigger is reached"): (
        "트리거에 닿기 전, 여유분 안에 들어서면 압축한다",
        "return meter.measure(messages) > trigger - margin: 보정된 크기를 트리거에서 여유분을 뺀 "
        "값과 비교하세요",
    ),
    ("ex5.should_compact", "leaves a history at or under trigger - margin alone"): (
        "`trigger - margin` 이하인 히스토리는 그대로 둔다",
        "return meter.measure(messages) > trigger - margin: 보정된 크기를 트리거에서 여유분을 뺀 "
        "값과 비교하세요. 정확히 trigger - margin이면 넘은 것이 아닙니다",
    ),
    ("ex5.should_compact", "measures with the calibrated meter, not raw characters / 4"): (
        "보정 없는 문자 수 / 4가 아니라 보정된 미터로 잰다",
        "meter.measure(messages)는 문자 수 / 4를 API의 사용량(usage)이 보여 준 비율로 보정합니다",
    ),
    ("ex5.safe_boundary", "the kept part never opens with a tool_result"): (
        "남기는 부분이 tool_result로 시작하지 않는다",
        "len(messages) - keep에서 시작하고(0보다 작아지지 않게), 그 위치의 메시지가 tool_result로 "
        "시작하는 동안 경계를 더 오래된 쪽으로 한 메시지씩 옮기세요",
    ),
    ("ex5.safe_boundary", "keeps at least the newest keep messages"): (
        "가장 최근 메시지를 적어도 keep개 남긴다",
        "경계를 절대 최근 쪽으로 옮기지 마세요: 가장 최근 keep개 메시지는 그대로 남습니다",
    ),
    ("ex5.safe_boundary", "moves the boundary back no further than a pair needs"): (
        "경계를 쌍에 필요한 만큼만 옮긴다",
        "남기는 부분이 tool_result로 시작하는 동안에만, 한 번에 한 메시지씩 옮기세요",
    ),
    ("ex5.safe_boundary", "does not change its input"): (
        "입력을 바꾸지 않는다",
        "messages는 읽기만 하고 인덱스를 반환하세요",
    ),
    ("ex5.structured_prompt", "names the five sections"): (
        "다섯 섹션의 이름을 밝힌다",
        "요약 호출의 시스템 프롬프트입니다: 요약한다는 것을 밝히고, 다섯 섹션(goal, progress, key "
        "facts, decisions, next steps)의 이름을 적고, 사용자의 제약을 원문 그대로 "
        "인용하라고 요청하세요",
    ),
    ("ex5.structured_prompt", "asks for the user's constraints verbatim"): (
        "사용자의 제약을 원문 그대로 인용하라고 요청한다",
        "사용자가 밝힌 모든 제약을 원문 그대로 인용하라고 쓰세요",
    ),
    ("ex5.structured_prompt", "keeps the budget through compaction (constraints workload)"): (
        "압축을 거쳐도 예산을 지킨다(constraints 워크로드)",
        "요약 호출의 시스템 프롬프트입니다: 요약한다는 것을 밝히고, 다섯 섹션(goal, progress, key "
        "facts, decisions, next steps)의 이름을 적고, 사용자의 제약을 원문 그대로 "
        "인용하라고 요청하세요",
    ),
    ("ex5.structured_prompt", "keeps the findings through compaction (audit workload)"): (
        "압축을 거쳐도 발견 사항을 지킨다(감사 과제)",
        "요약 호출의 시스템 프롬프트입니다: 요약한다는 것을 밝히고, 다섯 섹션(goal, progress, key "
        "facts, decisions, next steps)의 이름을 적고, 사용자의 제약을 원문 그대로 "
        "인용하라고 요청하세요",
    ),
    ("ex6.atomic_write", "writes the text as UTF-8, creating or replacing the file"): (
        "텍스트를 UTF-8로 써서 파일을 만들거나 교체한다",
        "임시 파일을 encoding='utf-8'로 여세요. os.replace는 이전 파일을 덮어씁니다",
    ),
    ("ex6.atomic_write", "a crash in the middle of the write leaves the old notes whole"): (
        "쓰는 도중 크래시가 나도 이전 메모가 온전하다",
        "텍스트를 같은 폴더의 임시 파일에 쓰고(tempfile.mkstemp(dir=path.parent)), 그다음 "
        "os.replace(tmp, path)를 하세요. 어떤 예외가 나든 임시 파일을 지우고 예외를 다시 "
        "발생시키세요",
    ),
    ("ex6.atomic_write", "leaves no temp file behind after a crash"): (
        "크래시 뒤에 임시 파일을 남기지 않는다",
        "쓰기와 이름 바꾸기를 try/except BaseException으로 감싸세요: 임시 파일을 지운 다음 "
        "raise하세요",
    ),
    ("ex6.atomic_write", "puts the new file in place with a rename from the same folder"): (
        "같은 폴더에서 이름을 바꿔 새 파일을 제자리에 놓는다",
        "tmp가 path와 같은 폴더에 있는 상태에서 os.replace(tmp, path)를 하세요: 이름 바꾸기는 한 "
        "파일 시스템 안에서만 원자적입니다",
    ),
    ("ex6.safe_path", "accepts plain names and sub-folders inside the folder"): (
        "폴더 안의 일반 이름과 하위 폴더를 받아들인다",
        "이름을 부분들로 나누고, 정확히 '..'인 부분만 거부하세요('v1..v2.md'는 괜찮은 이름입니다)",
    ),
    ("ex6.safe_path", "works when the folder itself is reached through a symlink"): (
        "폴더 자체가 심볼릭 링크를 거쳐 접근될 때도 동작한다",
        "폴더도 실제 경로로 바꾸세요: realpath(candidate)를 realpath(folder)와 "
        "비교하세요(macOS에서는 /tmp 자체가 심볼릭 링크입니다)",
    ),
    ("ex6.safe_path", "refuses absolute paths, '..', NUL bytes and empty names"): (
        "절대 경로, '..', NUL 바이트, 빈 이름을 거부한다",
        "NUL, 빈 이름, 절대 경로, '..' 이름을 거부하세요. 그다음 realpath(folder / name)와 "
        "realpath(folder)를 문자열 접두부가 아니라 경로 구성 요소로(os.path.commonpath) 비교하세요",
    ),
    ("ex6.safe_path", "refuses a symlink inside the folder that leads out"): (
        "폴더 안에서 밖으로 나가는 심볼릭 링크를 거부한다",
        "비교하기 전에 os.path.realpath(또는 Path.resolve())로 심볼릭 링크를 풀어 주세요",
    ),
    ("ex6.safe_path", "is not fooled by a sibling folder sharing the prefix (notes-evil)"): (
        "접두부가 같은 형제 폴더(notes-evil)에 속지 않는다",
        "'/x/notes-evil'.startswith('/x/notes')는 True입니다: 경로 구성 요소를 "
        "비교하거나(os.path.commonpath) Path.is_relative_to를 쓰세요",
    ),
    ("ex6.resume_notes", "collects the files already noted"): (
        "이미 기록된 파일들을 모은다",
        "모든 'Noted [k/n] PATH: ...' 줄의 경로를 모으세요. 가장 최근 'Plan:' 줄의 파일들을 다시 "
        "구성하세요(짧은 형식이면 FOLDER + name + EXT). 다음 파일은 계획된 파일 가운데 기록되지 "
        "않은 첫 파일입니다",
    ),
    ("ex6.resume_notes", "the next file is the first planned file not yet noted"): (
        "다음 파일은 계획된 파일 가운데 아직 기록되지 않은 첫 파일이다",
        "모든 'Noted [k/n] PATH: ...' 줄의 경로를 모으세요. 가장 최근 'Plan:' 줄의 파일들을 다시 "
        "구성하세요(짧은 형식이면 FOLDER + name + EXT). 다음 파일은 계획된 파일 가운데 기록되지 "
        "않은 첫 파일입니다",
    ),
    (
        "ex6.resume_notes",
        "reads both plan forms: short (folder and extension once) and full paths",
    ): (
        "두 가지 계획 형식을 모두 읽는다: 짧은 형식(폴더와 확장자를 한 번만)과 전체 경로",
        "'Plan: check N files in order, in FOLDER with EXT: a, b'는 FOLDER+a+EXT, ...를 뜻합니다. "
        "'Plan: check N files in order: p1, p2'는 전체 경로를 나열합니다",
    ),
    (
        "ex6.resume_notes",
        "returns None when every file is noted, or when there is no plan; uses the newest plan",
    ): (
        "모든 파일이 기록되었거나 계획이 없으면 None을 반환하고, 가장 최근 계획을 쓴다",
        "남은 것이 없으면(또는 계획된 것이 없으면) next_file은 None입니다. Plan 줄이 여러 개면 "
        "마지막 줄이 유효합니다",
    ),
    ("ex6.resume_notes", "agrees with the notes of real interrupted audit runs"): (
        "실제로 중단된 감사 실행들의 메모와 일치한다",
        "모든 'Noted [k/n] PATH: ...' 줄의 경로를 모으세요. 가장 최근 'Plan:' 줄의 파일들을 다시 "
        "구성하세요(짧은 형식이면 FOLDER + name + EXT). 다음 파일은 계획된 파일 가운데 기록되지 "
        "않은 첫 파일입니다",
    ),
    ("ex7.run_cost", "bills uncached input at the input price and output at the output price"): (
        "캐시되지 않은 입력은 입력 가격으로, 출력은 출력 가격으로 청구한다",
        "input_tokens는 캐시 여부와 관계없이 모든 입력 토큰을 셉니다: 캐시되지 않은 부분인 "
        "input_tokens - cache_read - cache_write는 입력 가격으로, cache_read는 캐시 읽기 "
        "가격으로, cache_write는 캐시 쓰기 가격으로, 출력은 출력 가격으로 계산해 더하세요. 모두 "
        "백만 토큰당 가격입니다",
    ),
    (
        "ex7.run_cost",
        "cache reads are part of input_tokens: billed once, at the cache-read price",
    ): (
        "캐시 읽기는 input_tokens에 포함된다: 캐시 읽기 가격으로 한 번만 청구한다",
        "input_tokens는 캐시 여부와 관계없이 모든 입력 토큰을 셉니다: 캐시되지 않은 부분인 "
        "input_tokens - cache_read - cache_write는 입력 가격으로, cache_read는 캐시 읽기 "
        "가격으로, cache_write는 캐시 쓰기 가격으로, 출력은 출력 가격으로 계산해 더하세요. 모두 "
        "백만 토큰당 가격입니다",
    ),
    ("ex7.run_cost", "cache writes are billed at the cache-write price (1.25x input)"): (
        "캐시 쓰기는 캐시 쓰기 가격(입력의 1.25배)으로 청구한다",
        "input_tokens는 캐시 여부와 관계없이 모든 입력 토큰을 셉니다: 캐시되지 않은 부분인 "
        "input_tokens - cache_read - cache_write는 입력 가격으로, cache_read는 캐시 읽기 "
        "가격으로, cache_write는 캐시 쓰기 가격으로, 출력은 출력 가격으로 계산해 더하세요. 모두 "
        "백만 토큰당 가격입니다",
    ),
    ("ex7.run_cost", "uses the prices it is given"): (
        "주어진 가격을 쓴다",
        "네 가지 가격을 `prices` 인자에서 읽으세요. 함수 안에 $3이나 $15를 적어 넣지 마세요",
    ),
    ("ex7.run_cost", "agrees with coursekit.bench.cost on a real cached run"): (
        "실제 캐시 실행에서 coursekit.bench.cost와 일치한다",
        "input_tokens는 캐시 여부와 관계없이 모든 입력 토큰을 셉니다: 캐시되지 않은 부분인 "
        "input_tokens - cache_read - cache_write는 입력 가격으로, cache_read는 캐시 읽기 "
        "가격으로, cache_write는 캐시 쓰기 가격으로, 출력은 출력 가격으로 계산해 더하세요. 모두 "
        "백만 토큰당 가격입니다",
    ),
    ("ex7.choose_strategy", "never picks a strategy that failed the task"): (
        "과제에 실패한 전략은 절대 고르지 않는다",
        "success == 1이고 peak_window <= max_peak인 행만 남기세요. 그중 cost_usd(cached가 "
        "False이면 cost_no_cache_usd)가 가장 낮은 전략을 반환하세요. 비용이 같으면 앞쪽 행을 "
        "택하고, 조건에 맞는 행이 없으면 None을 반환하세요",
    ),
    ("ex7.choose_strategy", "never picks a strategy whose peak is over the budget"): (
        "최대치가 예산을 넘는 전략은 절대 고르지 않는다",
        "success == 1이고 peak_window <= max_peak인 행만 남기세요. 그중 cost_usd(cached가 "
        "False이면 cost_no_cache_usd)가 가장 낮은 전략을 반환하세요. 비용이 같으면 앞쪽 행을 "
        "택하고, 조건에 맞는 행이 없으면 None을 반환하세요",
    ),
    ("ex7.choose_strategy", "compares the cost the caller asks for (cached or not)"): (
        "호출자가 요청한 비용(캐시 사용 여부)으로 비교한다",
        "success == 1이고 peak_window <= max_peak인 행만 남기세요. 그중 cost_usd(cached가 "
        "False이면 cost_no_cache_usd)가 가장 낮은 전략을 반환하세요. 비용이 같으면 앞쪽 행을 "
        "택하고, 조건에 맞는 행이 없으면 None을 반환하세요",
    ),
    (
        "ex7.choose_strategy",
        "on a tie keeps the earlier, simpler strategy; None if none qualifies",
    ): (
        "비용이 같으면 앞쪽의 더 단순한 전략을 택하고, 맞는 것이 없으면 None을 반환한다",
        "success == 1이고 peak_window <= max_peak인 행만 남기세요. 그중 cost_usd(cached가 "
        "False이면 cost_no_cache_usd)가 가장 낮은 전략을 반환하세요. 비용이 같으면 앞쪽 행을 "
        "택하고, 조건에 맞는 행이 없으면 None을 반환하세요",
    ),
    ("ex7.pipeline", "returns a pipeline run_agent can use (context, toolbox, system, ...)"): (
        "run_agent가 쓸 수 있는 파이프라인(`context`, `toolbox`, `system`, ...)을 반환한다",
        "레이어를 순서대로 도입하세요: read_file에 상한을 두고, 오래된 결과를 비우고, 그래도 "
        "윈도우가 차면 그때만 (주어진 클라이언트로) 압축하세요",
    ),
    ("ex7.pipeline", "answers audit(40) in a 16,000-token window, without a 400"): (
        "16,000 토큰 윈도우에서 400 오류 없이 audit(40)에 답한다",
        "레이어를 순서대로 도입하세요: read_file에 상한을 두고, 오래된 결과를 비우고, 그래도 "
        "윈도우가 차면 그때만 (주어진 클라이언트로) 압축하세요",
    ),
    ("ex7.pipeline", "still finds every service (full marks)"): (
        "여전히 모든 서비스를 찾아낸다(만점)",
        "레이어를 순서대로 도입하세요: read_file에 상한을 두고, 오래된 결과를 비우고, 그래도 "
        "윈도우가 차면 그때만 (주어진 클라이언트로) 압축하세요. 슬라이딩 윈도우나 자유 형식 "
        "요약은 발견 사항을 잊어버립니다",
    ),
    ("ex7.pipeline", "keeps every request within 10,000 tokens"): (
        "모든 요청을 10,000 토큰 이내로 유지한다",
        "더 일찍 비우거나 압축하세요: 트리거 판단 뒤에도 요청은 도구 결과 하나만큼 더 커지므로, "
        "트리거(여유분 포함)를 예산보다 한참 아래로 두세요",
    ),
    ("ex7.pipeline", "sends at most 40% of append-only's input tokens, summaries included"): (
        "요약을 포함해, 추가 전용이 보내는 입력 토큰의 40% 이하를 보낸다",
        "읽기에 상한을 두고, 오래된 결과를 비우고, 압축은 드물게 하세요: 압축할 때의 요약 호출은 "
        "오래된 부분을 다시 보냅니다",
    ),
    ("ex7.pipeline", "costs at most 80% of append-only's dollars, prompt caching on"): (
        "프롬프트 캐싱을 켠 상태에서 추가 전용 달러 비용의 80% 이하가 든다",
        "비우기를 하면 처음 비운 블록 뒤의 캐시된 블록이 모두 다시 쓰입니다: 안정적인 부분의 끝을 "
        "표시하고(agentlib.context.Breakpoints), 한 번 읽은 뒤 비울 결과는 캐시하지 "
        "마세요(Clearing(1)과 함께 newest=False)",
    ),
    ("ex8.fit_result", "returns a result that fits unchanged"): (
        "들어가는 결과는 그대로 반환한다",
        "tokens.count_text(text) <= max_tokens이면 text를 반환하세요. 그렇지 않으면 '\\n'으로 "
        "나누고 처음 k줄과, 마지막 줄로 NOTICE.format(budget=max_tokens, more=<빠진 줄 수>)를 "
        "남기세요. k는 예산이 허락하는 한 크게 잡으세요(이어 붙인 결과 전체를 세세요)",
    ),
    ("ex8.fit_result", "never goes over the budget"): (
        "예산을 절대 넘지 않는다",
        "tokens.count_text(text) <= max_tokens이면 text를 반환하세요. 그렇지 않으면 '\\n'으로 "
        "나누고 처음 k줄과, 마지막 줄로 NOTICE.format(budget=max_tokens, more=<빠진 줄 수>)를 "
        "남기세요. k는 예산이 허락하는 한 크게 잡으세요(이어 붙인 결과 전체를 세세요)",
    ),
    ("ex8.fit_result", "cuts at whole lines from the start and says how many are not shown"): (
        "처음부터 온전한 줄 단위로 자르고, 보여 주지 않은 줄 수를 알린다",
        "tokens.count_text(text) <= max_tokens이면 text를 반환하세요. 그렇지 않으면 '\\n'으로 "
        "나누고 처음 k줄과, 마지막 줄로 NOTICE.format(budget=max_tokens, more=<빠진 줄 수>)를 "
        "남기세요. k는 예산이 허락하는 한 크게 잡으세요(이어 붙인 결과 전체를 세세요)",
    ),
    ("ex8.fit_result", "keeps as many lines as the budget allows"): (
        "예산이 허락하는 만큼 줄을 최대한 남긴다",
        "tokens.count_text(text) <= max_tokens이면 text를 반환하세요. 그렇지 않으면 '\\n'으로 "
        "나누고 처음 k줄과, 마지막 줄로 NOTICE.format(budget=max_tokens, more=<빠진 줄 수>)를 "
        "남기세요. k는 예산이 허락하는 한 크게 잡으세요(이어 붙인 결과 전체를 세세요)",
    ),
    ("ex8.fit_result", "agrees with agentlib.delegate.fit"): (
        "agentlib.delegate.fit과 일치한다",
        "tokens.count_text(text) <= max_tokens이면 text를 반환하세요. 그렇지 않으면 '\\n'으로 "
        "나누고 처음 k줄과, 마지막 줄로 NOTICE.format(budget=max_tokens, more=<빠진 줄 수>)를 "
        "남기세요. k는 예산이 허락하는 한 크게 잡으세요(이어 붙인 결과 전체를 세세요)",
    ),
    ("ex8.wall_clock_steps", "a lead that never delegates: its own requests"): (
        "위임하지 않는 리드는 자기 요청 수만 센다",
        "리드의 단계를 차례로 보세요: 각 단계는 1을 더하고, delegate 호출을 한 단계는 그 단계가 "
        "시작한 서브 실행(리스트에서 다음에 오는 것들, delegate 호출 하나당 하나) 가운데 가장 큰 "
        ".calls도 더합니다. 다른 도구 호출은 서브 실행을 시작하지 않습니다",
    ),
    (
        "ex8.wall_clock_steps",
        "sub-agents started in one step run side by side: the longest counts",
    ): (
        "한 단계에서 시작한 서브에이전트들은 나란히 실행된다: 가장 긴 것만 센다",
        "리드의 단계를 차례로 보세요: 각 단계는 1을 더하고, delegate 호출을 한 단계는 그 단계가 "
        "시작한 서브 실행(리스트에서 다음에 오는 것들, delegate 호출 하나당 하나) 가운데 가장 큰 "
        ".calls도 더합니다. 다른 도구 호출은 서브 실행을 시작하지 않습니다",
    ),
    ("ex8.wall_clock_steps", "sub-agents started in different steps wait for each other"): (
        "서로 다른 단계에서 시작한 서브에이전트들은 서로를 기다린다",
        "리드의 단계를 차례로 보세요: 각 단계는 1을 더하고, delegate 호출을 한 단계는 그 단계가 "
        "시작한 서브 실행(리스트에서 다음에 오는 것들, delegate 호출 하나당 하나) 가운데 가장 큰 "
        ".calls도 더합니다. 다른 도구 호출은 서브 실행을 시작하지 않습니다",
    ),
    ("ex8.wall_clock_steps", "agrees with agentlib.delegate.wall_clock_steps on a real team"): (
        "실제 팀에서 agentlib.delegate.wall_clock_steps와 일치한다",
        "리드의 단계를 차례로 보세요: 각 단계는 1을 더하고, delegate 호출을 한 단계는 그 단계가 "
        "시작한 서브 실행(리스트에서 다음에 오는 것들, delegate 호출 하나당 하나) 가운데 가장 큰 "
        ".calls도 더합니다. 다른 도구 호출은 서브 실행을 시작하지 않습니다",
    ),
    ("ex8.team_bill", "counts the lead and every sub-agent"): (
        "리드와 모든 서브에이전트를 센다",
        "[lead, *subruns] 전체에 걸쳐 더하세요: 요청 수(단계), input_tokens, 그리고 "
        "ex7.run_cost처럼 계산한 달러 비용입니다. (input_tokens - cache_read - cache_write)는 "
        "입력 가격으로, cache_read와 cache_write는 각자의 가격으로, 출력은 출력 가격으로 "
        "계산하며, 모두 백만 토큰당 가격입니다",
    ),
    ("ex8.team_bill", "bills every step with the prompt cache"): (
        "모든 단계를 프롬프트 캐시를 반영해 청구한다",
        "[lead, *subruns] 전체에 걸쳐 더하세요: 요청 수(단계), input_tokens, 그리고 "
        "ex7.run_cost처럼 계산한 달러 비용입니다. (input_tokens - cache_read - cache_write)는 "
        "입력 가격으로, cache_read와 cache_write는 각자의 가격으로, 출력은 출력 가격으로 "
        "계산하며, 모두 백만 토큰당 가격입니다",
    ),
    ("ex8.team_bill", "uses the prices it is given"): (
        "주어진 가격을 쓴다",
        "[lead, *subruns] 전체에 걸쳐 더하세요: 요청 수(단계), input_tokens, 그리고 "
        "ex7.run_cost처럼 계산한 달러 비용입니다. (input_tokens - cache_read - cache_write)는 "
        "입력 가격으로, cache_read와 cache_write는 각자의 가격으로, 출력은 출력 가격으로 "
        "계산하며, 모두 백만 토큰당 가격입니다",
    ),
    ("ex8.team_bill", "agrees with agentlib.delegate.totals on a real team"): (
        "실제 팀에서 agentlib.delegate.totals와 일치한다",
        "[lead, *subruns] 전체에 걸쳐 더하세요: 요청 수(단계), input_tokens, 그리고 "
        "ex7.run_cost처럼 계산한 달러 비용입니다. (input_tokens - cache_read - cache_write)는 "
        "입력 가격으로, cache_read와 cache_write는 각자의 가격으로, 출력은 출력 가격으로 "
        "계산하며, 모두 백만 토큰당 가격입니다",
    ),
    ("ex9.definition_share", "the definitions' tokens over the request's, counted exactly"): (
        "정의의 토큰을 요청의 토큰으로 나눈 값을 정확히 센다",
        "정의가 차지하는 토큰은 tokens.count([], tools=tools)입니다. 그 값을 요청의 "
        "input_tokens로 나누세요(문자 수 / 4 추정은 쓰지 마세요)",
    ),
    ("ex9.definition_share", "no tools: a share of 0"): (
        "도구가 없으면 비율은 0이다",
        "tokens.count([], tools=[])는 0입니다. 오류 대신 0.0을 반환하세요",
    ),
    ("ex9.definition_share", "does not change its input"): (
        "입력을 바꾸지 않는다",
        "tokens.count로 세기만 하고, 받은 도구는 바꾸지 마세요",
    ),
    ("ex9.choose_deferred", "defers every client tool but the ones kept loaded"): (
        "로드해 둘 도구를 뺀 모든 클라이언트 도구를 지연시킨다",
        "도구마다 확인하세요: 서버 도구('type'이 있는 도구)와 keep_loaded에 이름이 있는 도구는 "
        "그대로 두고, 나머지는 모두 {**tool, 'defer_loading': True}로 바꾸세요",
    ),
    ("ex9.choose_deferred", "the API accepts the tools: the search tool is never deferred"): (
        "API가 도구 목록을 받아들인다: 검색 도구는 지연시키지 않는다",
        "'type'이 있는 도구(도구 검색 도구)는 로드된 채로 두어야 합니다. 검색 도구 자체를 "
        "지연시키면 API가 400으로 답합니다",
    ),
    ("ex9.choose_deferred", "does not change its input"): (
        "입력을 바꾸지 않는다",
        "받은 dict에 키를 설정하지 말고 새 dict({**tool, 'defer_loading': True})를 만드세요",
    ),
    ("ex9.search_tools", "returns at most `top` tool_reference blocks, each naming a client "
     "tool in `tools`"): (
        "`tools`에 있는 클라이언트 도구를 가리키는 tool_reference 블록을 최대 `top`개 반환한다",
        "가장 잘 맞는 도구들을 [{'type': 'tool_reference', 'tool_name': name}, ...]으로 "
        "반환하세요. 이름만 담은 문자열이나 텍스트는 안 됩니다",
    ),
    ("ex9.search_tools", "finds a tool from the words of its name"): (
        "이름에 든 단어로 도구를 찾는다",
        "도구의 이름과 설명에서 쿼리의 단어를 몇 개 찾았는지로 점수를 매기세요. 'get_oncall'이 "
        "'get oncall'과 맞도록 이름을 '_'로 나누세요",
    ),
    ("ex9.search_tools", "the agent answers the incident with it as its only way to find "
     "tools"): (
        "이 함수가 도구를 찾는 유일한 방법일 때 에이전트가 인시던트에 답한다",
        "에이전트는 몇 단어로 search_tools(query)를 호출합니다. 반환한 참조가 그 도구들을 "
        "로드합니다",
    ),
}

# lesson 01b (issue 32): the prompt cache
PHRASES_KO.update({
    "place_breakpoints should return the request (a dict with its messages), got {type}":
        "place_breakpoints는 요청(메시지가 든 dict)을 반환해야 합니다. 돌아온 것은 {type}입니다",
    "the system prompt should become a list of text blocks with the same text (a string "
    "cannot carry cache_control), got {system}":
        "시스템 프롬프트는 같은 텍스트를 담은 텍스트 블록 리스트가 되어야 합니다(문자열에는 "
        "cache_control을 붙일 수 없습니다). 돌아온 것: {system}",
    "the breakpoints should be at {want} (the end of the system prompt, the newest message's "
    "last block), got {got}":
        "중단점은 {want}에 있어야 합니다(시스템 프롬프트의 끝, 가장 새 메시지의 마지막 블록). "
        "돌아온 위치: {got}",
    "each breakpoint should be cache_control {'type': 'ephemeral'}":
        "중단점은 모두 cache_control {'type': 'ephemeral'}이어야 합니다",
    "the newest message's blocks should stay as they were, only marked":
        "가장 새 메시지의 블록은 표시만 더하고 그대로 두어야 합니다",
    "place_breakpoints changed the request it was given: build new lists and dicts (the "
    "caller's history must stay as it was)":
        "place_breakpoints가 받은 요청을 바꿨습니다. 새 리스트와 dict를 만드세요(호출한 쪽의 "
        "히스토리는 그대로 남아야 합니다)",
    "request {i}: the API answered {status}: {message}":
        "요청 {i}: API가 {status} 오류로 답했습니다: \"{message}\"",
    "request {i} wrote {a} and read {b} tokens; with the system prompt and the newest block "
    "marked it writes {c} and reads {d}":
        "요청 {i:은} {a} 토큰을 쓰고 {b} 토큰을 읽었습니다. 시스템 프롬프트와 가장 새 블록에 "
        "표시하면 {c} 토큰을 쓰고 {d} 토큰을 읽습니다",
    "the loop stopped after {n} requests; the reference made {m}":
        "루프가 요청 {n}번 뒤에 멈췄습니다. 기준 실행은 {m}번이었습니다",
    "bill_from_usage should return a number of dollars, got {type} {got}":
        "bill_from_usage는 달러 금액을 숫자로 반환해야 합니다. 돌아온 것은 {type} {got}입니다",
    "a request with 4 uncached, 1,000 written and 9,000 read tokens and 50 output tokens costs "
    "${want} at $3 input, $3.75 writes, $0.30 reads, $15 output per million; got {got} (that "
    "takes input_tokens for the whole prompt and subtracts the cache)":
        "캐시 안 된 토큰 4개, 쓴 토큰 1,000개, 읽은 토큰 9,000개, 출력 토큰 50개인 요청은 백만 "
        "토큰당 입력 $3, 쓰기 $3.75, 읽기 $0.30, 출력 $15이면 ${want}인데, 돌아온 값은 {got}"
        "입니다(input_tokens를 프롬프트 전체로 보고 캐시를 빼는 계산입니다)",
    "a request with 4 uncached, 1,000 written and 9,000 read tokens and 50 output tokens costs "
    "${want} at $3 input, $3.75 writes, $0.30 reads, $15 output per million; got {got}":
        "캐시 안 된 토큰 4개, 쓴 토큰 1,000개, 읽은 토큰 9,000개, 출력 토큰 50개인 요청은 백만 "
        "토큰당 입력 $3, 쓰기 $3.75, 읽기 $0.30, 출력 $15이면 ${want}인데, 돌아온 값은 {got}"
        "입니다",
    "a run with no requests costs nothing": "요청이 없는 실행의 비용은 0입니다",
    "{n} request(s) with {inp} uncached, {five} written for 5 minutes, {hour} written for an "
    "hour, {read} read and {out} output tokens cost ${want} at {prices}; got {got}":
        "요청 {n}번(캐시 안 된 토큰 {inp}개, 5분용으로 쓴 토큰 {five}개, 1시간용으로 쓴 토큰 "
        "{hour}개, 읽은 토큰 {read}개, 출력 토큰 {out}개)은 가격이 {prices}일 때 ${want}인데, "
        "돌아온 값은 {got}입니다",
    "without a cache, {n} request(s) with {inp} uncached, {five} written for 5 minutes, {hour} "
    "written for an hour, {read} read and {out} output tokens cost ${want} at {prices}; got "
    "{got}":
        "캐시가 없으면 요청 {n}번(캐시 안 된 토큰 {inp}개, 5분용으로 쓴 토큰 {five}개, 1시간용으로 "
        "쓴 토큰 {hour}개, 읽은 토큰 {read}개, 출력 토큰 {out}개)은 가격이 {prices}일 때 "
        "${want}인데, 돌아온 값은 {got}입니다",
    "two requests writing 2,000 tokens for 5 minutes and 3,500 for an hour "
    "(usage.cache_creation) cost ${want}; got {got}":
        "5분용으로 2,000 토큰, 1시간용으로 3,500 토큰을 쓴 요청 두 번(usage.cache_creation)은 "
        "${want}인데, 돌아온 값은 {got}입니다",
    "without a cache the same two requests cost ${want} (input + written + read at the input "
    "price); got {got}":
        "캐시가 없으면 같은 요청 두 번은 ${want}입니다(입력 + 쓰기 + 읽기를 입력 가격으로). "
        "돌아온 값은 {got}입니다",
    "the lesson's audit with 1-hour caching on {model} costs ${want} by agentlib.cost.bill; "
    "got {got}":
        "{model}에서 1시간 캐시를 켠 레슨의 감사 과제는 agentlib.cost.bill로 ${want}인데, "
        "돌아온 값은 {got}입니다",
    "uncached, the same requests cost ${want}; got {got}":
        "캐시 없이 같은 요청들은 ${want}인데, 돌아온 값은 {got}입니다",
    "first_divergence should return a cache_miss_reason type (a string) or None, got {type} "
    "{got}":
        "first_divergence는 cache_miss_reason 타입(문자열)이나 None을 반환해야 합니다. 돌아온 "
        "것은 {type} {got}입니다",
    "{label}: the API reports {want}, got {got}": "{label}: API의 답은 {want}, 돌아온 값은 {got}",
    "two messages appended, the breakpoint moved": "메시지 두 개를 덧붙이고 중단점을 옮김",
    "the same request": "같은 요청",
    "another model": "다른 모델",
    "a timestamp in the system prompt": "시스템 프롬프트에 타임스탬프",
    "a tool added": "도구 하나 추가",
    "the tools reordered": "도구 순서 변경",
    "a tool added and the system prompt changed": "도구 하나 추가, 시스템 프롬프트 변경",
    "thinking turned on": "사고를 켬",
    "tool_choice set": "tool_choice 지정",
    "an old tool result cleared": "오래된 도구 결과를 비움",
    "the newest exchange removed": "가장 새 주고받기를 지움",
})

_BP_KO = ("요청을 복사하세요. `system`을 텍스트 블록 리스트로 만들고 마지막 블록에 cache_control "
          "{'type': 'ephemeral'}을 붙이세요. 모든 메시지 블록에서 cache_control을 지운 다음, "
          "가장 새 메시지의 마지막 블록에 붙이세요. 레슨 1b의 '루프 안의 자동 캐싱' 절을 보세요")
_BILL_KO = ("input_tokens는 캐시되지 않은 부분일 뿐이니 입력 가격으로 계산하세요. "
            "cache_creation.ephemeral_5m_input_tokens는 cache_write_5m, "
            "ephemeral_1h_input_tokens는 cache_write_1h, cache_read_input_tokens는 cache_read, "
            "output_tokens는 출력 가격이고 모두 백만 토큰당 가격입니다. cached=False이면 "
            "입력 + 쓰기 + 읽기를 입력 가격으로 계산하세요")
_DIV_KO = ("프롬프트의 순서대로 비교해 처음 다른 것을 반환하세요. 모델, 도구, 시스템, 그다음 다른 "
           "설정(thinking, tool_choice: 'unavailable'), 그다음 메시지입니다(직전 요청의 메시지들이 "
           "지금 메시지들의 앞부분이어야 합니다). cache_control은 무시하세요. 레슨 1b의 '무엇이 "
           "접두부를 소리 없이 깨뜨리는가' 절을 보세요")
_CAPSTONE_HINT_KO = (
    "과제의 이름(task.name)과 모델(agentlib.models.model_name(client))을 읽으세요. 감사 과제와 바늘 찾기 "
    "과제는 읽기에 상한을 두고 결과를 비우세요(사고 블록을 대화에 묶는 모델에서는 API가 비우게 하세요: "
    "클라이언트가 편집하면 메모가 사라집니다). ops 카탈로그는 도구 검색 뒤로 지연 로딩하고, 캐시 중단점은 "
    "변하지 않는 부분 뒤에 두세요")
CHECKS_KO.update({
    ("ex10.my_agent", "returns a setup run_agent can use, for every task and model"): (
        "모든 과제와 모델에서 run_agent가 쓸 수 있는 설정을 돌려준다",
        "context, toolbox, system, extra_tools, extra, cache, max_tokens 가운데의 키로 된 dict를 "
        "반환하세요"),
    **{("ex10.my_agent", f"solves the {family} task on both models within the cap"): (
        f"두 모델 모두에서 상한 안에 {family} 과제를 해결한다", _CAPSTONE_HINT_KO)
       for family in ("audit", "needle", "constraints", "ops")},
})
PHRASES_KO.update({
    # ex10.my_agent (the capstone; the run's errors come from classroom/harness.py)
    "my_agent should return a dict with keys among {keys}; got {type}": (
        "my_agent는 {keys} 가운데의 키로 된 dict를 반환해야 합니다. 받은 값의 타입: {type}"),
    "a Compactor uses another client: build it with the `client` my_agent receives, so that its "
    "summary calls are counted too": (
        "Compactor가 다른 클라이언트를 씁니다: my_agent가 받은 `client`로 만드세요. 그래야 요약 "
        "호출도 함께 셉니다"),
    "'max_tokens' should be an integer from {low} to {high}, got {got}": (
        "'max_tokens'는 {low}부터 {high}까지의 정수여야 합니다. 받은 값: {got}"),
    "{family} on {model}, no run: {error}": "{model}의 {family}: 실행하지 못함: {error}",
    "{family} on {model}: spent ${c}, over the ${cap} cap": (
        "{model}의 {family}: ${c} 사용, 상한 ${cap} 초과"),
    "{family} on {model}: {ended} after {n} calls, {detail}, peak {p}, ${c}": (
        "{model}의 {family}: 호출 {n}번 뒤 {ended}, {detail}, 최대치 {p}, ${c}"),
})

CHECKS_KO.update({
    ("ex1b.place_breakpoints", "marks the end of the system prompt and the newest block, "
     "nothing else"): ("시스템 프롬프트의 끝과 가장 새 블록에만 표시한다", _BP_KO),
    ("ex1b.place_breakpoints", "does not change its input"): ("입력을 바꾸지 않는다", _BP_KO),
    ("ex1b.place_breakpoints", "in a loop, every request reads the whole previous prompt, "
     "within 4 breakpoints"): (
        "루프에서 요청마다 직전 프롬프트 전체를 읽고, 중단점은 4개를 넘지 않는다", _BP_KO),
    ("ex1b.bill_from_usage", "input_tokens is only the uncached part: reads and writes are "
     "billed once, at their own prices"): (
        "input_tokens는 캐시되지 않은 부분일 뿐이다: 읽기와 쓰기는 각자의 가격으로 한 번만 "
        "청구한다", _BILL_KO),
    ("ex1b.bill_from_usage", "1-hour writes at the 1-hour price, 5-minute writes at the "
     "5-minute price"): ("1시간 쓰기는 1시간 가격, 5분 쓰기는 5분 가격으로 계산한다", _BILL_KO),
    ("ex1b.bill_from_usage", "cached=False: the same prompt, every token at the input price"): (
        "cached=False: 같은 프롬프트의 모든 토큰을 입력 가격으로 계산한다", _BILL_KO),
    ("ex1b.bill_from_usage", "agrees with agentlib.cost.bill on a real cached run"): (
        "캐시를 켠 실제 실행에서 agentlib.cost.bill과 일치한다", _BILL_KO),
    ("ex1b.first_divergence", "None when the request only appends (a moved breakpoint is no "
     "change)"): ("요청이 덧붙이기만 했다면 None이다(옮겨진 중단점은 변경이 아니다)", _DIV_KO),
    ("ex1b.first_divergence", "names the earliest of model, tools, system"): (
        "모델, 도구, 시스템 중 가장 먼저 달라진 것을 댄다", _DIV_KO),
    ("ex1b.first_divergence", "an edited or removed old message is messages_changed; a changed "
     "setting is unavailable"): (
        "편집하거나 지운 오래된 메시지는 `messages_changed`, 바뀐 설정은 `unavailable`이다", _DIV_KO),
    ("ex1b.first_divergence", "agrees with the API's cache diagnostics on every case"): (
        "모든 경우에서 API의 캐시 진단과 일치한다", _DIV_KO),
})

# their `.format` (classroom.grading fills them in) picks each particle by its value
PHRASES_KO = templates(PHRASES_KO)
