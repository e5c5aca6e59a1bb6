"""An adapter whose hello declares a level that does not exist."""

import sys

sys.stdin.readline()
sys.stdout.write('{"type": "hello", "protocol": 1, "name": "x", "version": "1", "level": "platinum"}\n')
sys.stdout.flush()
