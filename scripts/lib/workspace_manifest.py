"""Makes a folder of canonical tables written by a generator script into a workspace:
`manifest.json` listing every table with its data rows and SHA-256, the shape the toolkit
writes and checks (docs/workspace.md). Standard library only."""
import hashlib
import json
import os

TOOLKIT_VERSION = "0.1.0"


def table_entry(path):
    """Rows (records after the header; a line feed inside quotes ends none) and SHA-256."""
    digest = hashlib.sha256()
    records, quoted = 0, False
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
            if b'"' not in chunk:
                if not quoted:
                    records += chunk.count(b"\n")
                continue
            for byte in chunk:
                if byte == 34:
                    quoted = not quoted
                elif byte == 10 and not quoted:
                    records += 1
    return {"name": os.path.basename(path), "rows": max(0, records - 1), "sha256": digest.hexdigest()}


def write_manifest(folder, note):
    """Lists every `*.csv` of `folder`; `note` says what generated them."""
    names = sorted((n for n in os.listdir(folder) if n.endswith(".csv")), key=lambda n: n.encode())
    tables = [table_entry(os.path.join(folder, n)) for n in names]
    manifest = {
        "sources": [{"path": t["name"], "sha256": t["sha256"], "format": "generated", "rowsRead": t["rows"],
                     "accepted": t["rows"], "rejected": 0, "duplicates": 0, "notes": [note]} for t in tables],
        "subjects": [],
        "tables": tables,
        "timezone": "UTC",
        "toolkitVersion": TOOLKIT_VERSION,
    }
    with open(os.path.join(folder, "manifest.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
