"""zPerfLab's model layer: the event engine, hardware and software models,
experiments and calibration. Pure Python and numpy; never imports Qt."""
