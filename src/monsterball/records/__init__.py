"""What is read from game records above the rules: the luck report (``luck``). The record
format itself (writing, reading, replaying, verifying) is the core's (``core.record``)."""
