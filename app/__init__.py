"""zPerfLab's application layer: command line, settings, storage, workers
and export. May use QtCore, never widgets."""
