"""``python -m webhook`` is ``binpack-webhook``."""

from webhook.cli import main

raise SystemExit(main())
