"""zPerfLab's application layer: command line, settings, storage, workers
and export. May use QtCore (QtGui and QtSvg to paint exports), never widgets
(except app.gui, which starts the window)."""

#: zPerfLab's version: the one place it is written (setup.cfg reads it).
__version__ = "0.1.0"
#: The desktop id: the .desktop file and AppStream metainfo are named after it
#: (packaging/build.sh), and the GUI announces it so desktops match its windows.
APP_ID = "org.zperflab.zperflab"
