"""The I/O subsystem: 3390 geometry, disks, RAID ranks, control-unit cache,
channels and channel programs."""
