//go:build purego || !amd64

package shamir

// kernelForms returns no forms: the kernels of this build have one form
// each, which the kernel tests reach through the driver.
func kernelForms() []kernelForm { return nil }
