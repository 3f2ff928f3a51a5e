package txwatch

// oNoFollow: Windows has no such open flag; the Lstat check before the
// open stands alone (creating a symlink there needs privileges).
const oNoFollow = 0
