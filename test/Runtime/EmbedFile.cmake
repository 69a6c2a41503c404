# cmake -DINPUT=<file> -DOUTPUT=<file.inc> -DNAME=<identifier> -P EmbedFile.cmake
# Writes `static const unsigned char NAME[] = {...};` and NAME_size with the
# bytes of INPUT, so that tests carry their inputs inside the executable.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" length)
math(EXPR size "${length} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}"
  "// Generated from ${INPUT} by EmbedFile.cmake.\n"
  "static const unsigned char ${NAME}[] = {\n${bytes}\n};\n"
  "static const unsigned long ${NAME}_size = ${size};\n")
