# Warnings and sanitizers for every cuzk target, through one interface library.
add_library(cuzk_options INTERFACE)
target_compile_options(cuzk_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>)
# __int128 is a GNU extension that -Wpedantic flags; we rely on it deliberately (ff/bigint.hpp).
target_compile_options(cuzk_options INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Wno-pedantic>)
if(CUZK_WERROR)
  target_compile_options(cuzk_options INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
endif()
if(CUZK_X86_ADX)
  target_compile_options(cuzk_options INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-mbmi2 -madx>)
  target_compile_definitions(cuzk_options INTERFACE CUZK_X86_ADX=1)
endif()
if(CUZK_SANITIZE)
  target_compile_options(cuzk_options INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all>)
  target_link_options(cuzk_options INTERFACE -fsanitize=address,undefined)
endif()
