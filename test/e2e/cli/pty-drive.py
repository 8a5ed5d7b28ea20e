# Runs a command in a pseudo-terminal and types answers at its prompts (test/e2e/cli/cli-elicit-form.test.ts).
# argv[1]: the command as a JSON array; argv[2]: the answers as a JSON array of lines. An answer is
# typed once the output so far ends with a prompt (": " or "] "); prints everything the terminal
# showed, as JSON with the exit code.
import json, os, pty, re, select, sys

command, answers = json.loads(sys.argv[1]), json.loads(sys.argv[2])
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)
shown, since = b'', b''
while True:
    ready, _, _ = select.select([fd], [], [], 30)
    if not ready:
        break  # stuck: the test sees what was shown
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break  # the child closed the terminal
    if not chunk:
        break
    shown += chunk
    since += chunk
    # readline moves the cursor after its prompt (ESC [ n G): look past such sequences.
    if answers and re.search(rb'(: |\] )$', re.sub(rb'\x1b\[[0-9;]*[A-Za-z]', b'', since)):
        os.write(fd, (answers.pop(0) + '\r').encode())
        since = b''
_, status = os.waitpid(pid, 0)
sys.stdout.write(json.dumps({'code': os.waitstatus_to_exitcode(status), 'shown': shown.decode('utf8', 'replace')}))
