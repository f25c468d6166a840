// Compiles the precompiled header that cmake/pch.cmake shares (see there).
