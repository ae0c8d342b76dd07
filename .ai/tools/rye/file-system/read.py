# rye:unsigned
"""Read a text file of the project; prints a JSON result."""

__version__ = "1.0.0"
__tool_type__ = "python"
__executor_id__ = "rye/core/runtimes/python/script"
__category__ = "rye/file-system"
__tool_description__ = "Read a text file"

CONFIG_SCHEMA = {
    "type": "object",
    "properties": {"path": {"type": "string", "description": "File to read, relative to the project"}},
    "required": ["path"],
}

import argparse
import json
import pathlib
import sys


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--params", default=None)
    parser.add_argument("--project-path", default=".")
    args, _ = parser.parse_known_args()
    params = json.loads(args.params) if args.params else json.load(sys.stdin)
    root = pathlib.Path(args.project_path).resolve()
    target = (root / params["path"]).resolve()
    if root not in target.parents and target != root:
        print(json.dumps({"success": False, "error": "path escapes the project"}))
        return
    print(json.dumps({"success": True, "content": target.read_text(encoding="utf-8")}))


if __name__ == "__main__":
    main()
