"""Board profiles: find the board (automatically, from ArUco markers or four taps), learn its
orientation and look from a known position, save them, and notice drift."""
