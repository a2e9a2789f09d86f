"""Running Parakh beyond one process: sharded stages and their merge, sweeps and experiments."""
