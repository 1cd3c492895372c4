"""The app shell: CLI, config, the service that wires camera -> referee -> store -> web."""
