"""``python -m app`` starts zPerfLab like the ``zperflab`` command."""
import sys

from app.cli import main

sys.exit(main())
