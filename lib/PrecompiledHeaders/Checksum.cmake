# Writes FILE's SHA-256 to FILE.sum (lib/PrecompiledHeaders/CMakeLists.txt).
file(SHA256 "${FILE}" sum)
file(WRITE "${FILE}.sum" "${sum}\n")
