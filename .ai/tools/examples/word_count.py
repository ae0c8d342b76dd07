# rye:unsigned
"""Count the words of a text; prints a JSON result."""

__version__ = "1.0.0"
__tool_type__ = "python"
__executor_id__ = "rye/core/runtimes/python/script"
__category__ = "examples"
__tool_description__ = "Count words in a text"

CONFIG_SCHEMA = {
    "type": "object",
    "properties": {
        "text": {"type": "string", "description": "Text to count"},
        "unique": {"type": "boolean", "default": False},
    },
    "required": ["text"],
}

import argparse
import json
import sys


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--params", default=None)
    parser.add_argument("--project-path", default=".")
    args, _ = parser.parse_known_args()
    params = json.loads(args.params) if args.params else json.load(sys.stdin)
    words = str(params.get("text", "")).split()
    unique = str(params.get("unique", "false")).lower() in ("true", "1")
    count = len(set(words)) if unique else len(words)
    print(json.dumps({"success": True, "count": count}))


if __name__ == "__main__":
    main()
